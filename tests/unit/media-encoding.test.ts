// The CDN serves variants far more than anything else (docs/PERFORMANCE.md, "What it costs"):
// JPEG variants are encoded with mozjpeg's settings, smaller than plain libjpeg's at the same
// quality, while the original keeps the faster encoder (lib/media/render.ts).
import sharp from 'sharp';
import { render } from '../../lib/media/render';

/** A photo-like JPEG: a gradient under gaussian grain, as the media bench makes its photo. */
async function photo(width: number, height: number): Promise<Buffer> {
  const noise = await sharp({ create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 18 } } }).raw().toBuffer();
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2a6"/><stop offset="1" stop-color="#c52"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`))
    .composite([{ input: noise, raw: { width, height, channels: 3 }, blend: 'overlay' }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** What plain libjpeg makes of the same scaled pixels at the same quality. */
const plain = (bytes: Buffer, side: number) => sharp(bytes).autoOrient()
  .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
  .jpeg({ quality: 82, progressive: true, mozjpeg: false }).toBuffer();

it('encodes JPEG variants smaller than plain libjpeg at the same quality, and the original with it', async () => {
  const bytes = await photo(1600, 1200);
  const result = await render(bytes, 'image/jpeg');
  if (!result.ok) throw new Error(result.reason);
  const byName = Object.fromEntries(result.images.map((i) => [i.name, i]));
  for (const side of [1080, 640, 320]) {
    const variant = byName[String(side)]!;
    expect((await sharp(variant.data).metadata()).format).toBe('jpeg');
    expect(Math.max(variant.width, variant.height)).toBe(side);
    expect(variant.data.length).toBeLessThan((await plain(bytes, side)).length * 0.97);
  }
  // The original: plain libjpeg, byte for byte what the fast encoder makes.
  const original = await sharp(bytes).autoOrient().jpeg({ quality: 82, progressive: true, mozjpeg: false }).toBuffer();
  expect(byName.original!.data.equals(original)).toBe(true);
});
