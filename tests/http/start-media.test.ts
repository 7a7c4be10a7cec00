// `npm start` end to end for media (contract sections 10 and 12): it starts the local
// S3-compatible storage, and an upload sent there with the presigned PUT of
// POST /media/uploads reaches the processing function through the storage's own event,
// as in AWS; the media becomes ready and its images are served from the storage. Runs
// scripts/start.mjs on free ports against the jest DynamoDB Local (DYNAMODB_ENDPOINT).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import sharp from 'sharp';
import { createServer } from 'node:net';
import { ensureTable, freePort } from '../../scripts/lib/local-dynamodb.mjs';
import { uniq } from '../support/factories';
import { makeImage } from '../support/media';

const ROOT = join(__dirname, '..', '..');
let stack: ChildProcess;
let out = '';
let base: string;

/** A base port whose next two are free too (npm start needs PORT, PORT+1, PORT+2). */
async function threeFreePorts(): Promise<number> {
  for (;;) {
    const p = await freePort();
    const ok = await Promise.all([p + 1, p + 2].map((q) => new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(q, '127.0.0.1', () => s.close(() => resolve(true)));
    })));
    if (ok.every(Boolean)) return p;
  }
}

beforeAll(async () => {
  await ensureTable(process.env.DYNAMODB_ENDPOINT!, 'aperture-local');
  const port = await threeFreePorts();
  base = `http://127.0.0.1:${port}`;
  stack = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), ESBUILD_WORK_FOLDER: '.esbuild-start-media', S3_ENDPOINT: '', MEDIA_BUCKET: '' },
  });
  stack.stdout!.on('data', (d) => { out += d; });
  stack.stderr!.on('data', (d) => { out = (out + d).slice(-8000); });
  const until = Date.now() + 150_000;
  while (!out.includes('ready in')) {
    if (stack.exitCode !== null) throw new Error(`npm start exited:\n${out}`);
    if (Date.now() > until) throw new Error(`npm start was not ready:\n${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}, 180_000);

afterAll(async () => {
  if (stack?.exitCode === null) {
    const exited = new Promise((r) => stack.once('exit', r));
    stack.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  }
  stack?.stdout?.destroy();
  stack?.stderr?.destroy();
});

it('prints the storage on a loopback port, and an upload there is processed through its event', async () => {
  const storage = /media storage \(S3-compatible, bucket ([\w-]+)\): (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
  expect(storage).not.toBeNull();
  const username = uniq('sm');
  const reg = await fetch(`${base}/auth/register`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Start Media', username, email: `${username}@example.test`, password: 'correct horse' }),
  });
  expect(reg.status).toBe(201);
  const { token } = await reg.json() as { token: string };
  const auth = { Authorization: `Bearer ${token}` };

  const image = await makeImage('jpeg', 640, 480);
  const issued = await fetch(`${base}/media/uploads`, {
    method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ contentType: 'image/jpeg', size: image.length }),
  });
  expect(issued.status).toBe(201);
  const { upload } = await issued.json() as { upload: { mediaId: string; url: string; headers: Record<string, string> } };
  expect(upload.url.startsWith(`${storage![2]}/${storage![1]}/uploads/${upload.mediaId}?`)).toBe(true);
  expect((await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: image })).status).toBe(200);

  // Nobody calls processing: the storage's event does. Poll until it is done.
  let media: { status: string; url: string; width: number; height: number } | undefined;
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const res = await fetch(`${base}/media/${upload.mediaId}`, { headers: auth });
    media = (await res.json() as { media: typeof media }).media;
    if (media!.status !== 'pending') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(media).toMatchObject({ status: 'ready', width: 480, height: 640 });
  const served = await fetch(media!.url);
  expect(served.status).toBe(200);
  expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).exif).toBeUndefined();
});
