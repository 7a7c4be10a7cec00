// Headless Chromium (Debian's `chromium` package; .ci/run installs it when missing) for the
// tests that open a page in a real browser. The network of the test machines is closed, so
// every background service of the browser is off, and each run gets a fresh profile.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? 'chromium';

/**
 * The DOM of `url` after its scripts ran: Chromium's --dump-dom, with a budget of virtual
 * time (the page's timers run ahead; the browser waits for its requests) so that a page
 * that renders from a fetched document is rendered when dumped.
 */
export async function renderedDom(url: string, virtualTimeMs = 20_000): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), 'aperture-chromium-'));
  try {
    const child = spawn(CHROMIUM, [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', `--user-data-dir=${profile}`,
      `--virtual-time-budget=${virtualTimeMs}`, '--dump-dom', url,
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { err = (err + d.toString()).slice(-4000); });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', (e) => reject(new Error(`cannot start ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH): ${e.message}`)));
      child.once('exit', resolve);
    });
    if (code !== 0) throw new Error(`${CHROMIUM} exited with ${code}:\n${err}`);
    return out;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}
