#!/usr/bin/env node
// `npm run bench:media -- [--runs 5] [--out <file>]`: processing time and peak memory of
// media processing (lib/media/render.ts, the work of the mediaProcess function) for a
// 12-megapixel JPEG (4000 x 3000, EXIF with GPS and an orientation). Each run is a fresh
// Node process, as a fresh Lambda container: it loads sharp, renders a small image once
// (what a container's first event pays apart), then times one 12-MP render; its peak
// resident memory (maxRSS) is read at the end. Prints the p50 of the runs and writes JSON.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { build } from 'esbuild';
import sharp from 'sharp';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const arg = (name, fallback) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : fallback; };
const runs = Number(arg('runs', 5));
const out = arg('out');
const work = join(root, '.bench', 'media');
mkdirSync(work, { recursive: true });
const say = (m) => process.stderr.write(`[bench:media] ${m}\n`);

// The render module as the function bundles it (sharp external, loaded from node_modules).
const bundle = join(work, 'render.cjs');
await build({ entryPoints: [join(root, 'lib/media/render.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node22', external: ['sharp'], outfile: bundle, logLevel: 'error' });

// A 12-MP photo-like JPEG: smooth gradients with gaussian noise (a photo's grain), quality 90.
const photo = join(work, '12mp.jpg');
const [w, h] = [4000, 3000];
const noise = await sharp({ create: { width: w, height: h, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 18 } } }).raw().toBuffer();
const gradient = await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2a6"/><stop offset="1" stop-color="#c52"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`))
  .composite([{ input: noise, raw: { width: w, height: h, channels: 3 }, blend: 'overlay' }])
  .withExif({ IFD0: { Make: 'BenchCam', Model: 'B1' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2964/100' } })
  .withMetadata({ orientation: 6 })
  .jpeg({ quality: 90 })
  .toFile(photo);
say(`input: ${w} x ${h} JPEG, ${(gradient.size / 1024 / 1024).toFixed(1)} MiB`);

const child = `
const { readFileSync } = require('node:fs');
const { render } = require(${JSON.stringify(bundle)});
const sharp = require('sharp');
(async () => {
  const small = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#888' } }).jpeg().toBuffer();
  await render(small, 'image/jpeg');
  const bytes = readFileSync(${JSON.stringify(photo)});
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await render(bytes, 'image/jpeg');
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  if (!r.ok) throw new Error(r.reason);
  process.stdout.write(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, maxRssMiB: process.resourceUsage().maxRSS / 1024, outputs: r.images.map((i) => [i.name, i.width, i.height, i.data.length]) }));
})().catch((e) => { console.error(e); process.exit(1); });`;

const results = [];
for (let i = 0; i < runs; i++) {
  const res = spawnSync(process.execPath, ['-e', child], { cwd: root, encoding: 'utf8', env: { ...process.env, STAGE: 'local' } });
  if (res.status !== 0) throw new Error(res.stderr);
  results.push(JSON.parse(res.stdout));
  say(`run ${i + 1}: ${results.at(-1).ms.toFixed(0)} ms (CPU ${results.at(-1).cpuMs.toFixed(0)} ms), peak RSS ${results.at(-1).maxRssMiB.toFixed(0)} MiB`);
}
const p50 = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const summary = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, arch: process.arch, sharp: sharp.versions.sharp, vips: sharp.versions.vips },
  input: { width: w, height: h, bytes: gradient.size },
  runs: results.length,
  p50Ms: p50(results.map((r) => r.ms)),
  p50CpuMs: p50(results.map((r) => r.cpuMs)),
  p50PeakRssMiB: p50(results.map((r) => r.maxRssMiB)),
  maxPeakRssMiB: Math.max(...results.map((r) => r.maxRssMiB)),
  outputs: results[0].outputs,
  loadAverage: os.loadavg()[0],
  all: results.map((r) => ({ ms: Math.round(r.ms), cpuMs: Math.round(r.cpuMs), maxRssMiB: Math.round(r.maxRssMiB) })),
};
process.stdout.write(`\n| 12-MP JPEG (${(gradient.size / 1024 / 1024).toFixed(1)} MiB) | wall p50 of ${runs} | CPU p50 | peak RSS p50 | peak RSS max | load average |\n|---|---|---|---|---|---|\n`
  + `| decode, orient, 4 encodes (original, 1080, 640, 320) | ${summary.p50Ms.toFixed(0)} ms | ${summary.p50CpuMs.toFixed(0)} ms | ${summary.p50PeakRssMiB.toFixed(0)} MiB | ${summary.maxPeakRssMiB.toFixed(0)} MiB | ${summary.loadAverage.toFixed(1)} on ${os.cpus().length} CPUs |\n`);
if (out) writeFileSync(out, JSON.stringify(summary, null, 2));
