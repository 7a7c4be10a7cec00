// `npm start` needs PORT, PORT+1 and PORT+2: with one taken it must refuse at once, naming
// the port, before starting DynamoDB Local or serverless-offline (which would otherwise
// take the other server's answer for its own readiness).
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../../scripts/lib/local-dynamodb.mjs';

const ROOT = join(__dirname, '..', '..');

/** A port whose next one is held by a server of ours (another, if that one is taken). */
async function holdNext(): Promise<{ base: number; blocker: Server }> {
  for (;;) {
    const base = await freePort();
    const blocker: Server = createServer();
    const held = await new Promise<boolean>((resolve) => {
      blocker.once('error', () => resolve(false));
      blocker.listen(base + 1, '127.0.0.1', () => resolve(true));
    });
    if (held) return { base, blocker };
  }
}

it('refuses at once when one of its three ports is taken', async () => {
  const { base, blocker } = await holdNext();
  try {
    const res = spawnSync(process.execPath, [join(ROOT, 'scripts/start.mjs')], {
      cwd: ROOT, env: { ...process.env, PORT: String(base) }, encoding: 'utf8', timeout: 30_000,
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(new RegExp(`port (\\d+, )*${base + 1}(, \\d+)* is in use`));
    expect(res.stdout).not.toContain('DynamoDB Local on');
  } finally {
    await new Promise((r) => blocker.close(r));
  }
});
