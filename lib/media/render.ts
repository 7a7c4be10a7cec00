// Decoding and re-encoding an uploaded image with sharp (libvips). Pure: bytes in, images
// out, or the reason they are refused. The header is read first (no pixels decoded) to
// check the real type against the declared one and the pixel count against the limit, so a
// decompression bomb is refused before it is inflated; sharp's own limitInputPixels guards
// the decode again. Every output is re-encoded from the decoded pixels with the EXIF
// orientation applied, and sharp writes no metadata unless asked (no EXIF: no GPS
// position, camera or dates; no XMP, IPTC or ICC profile).
import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { MAX_PIXELS, VARIANT_SIZES, type MediaType, type VariantName } from './model';

const FORMATS: Record<MediaType, 'jpeg' | 'png' | 'webp'> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/webp': 'webp' };

// No operation cache: a container processes each image once, and the cache would only hold
// memory (peak memory: docs/PERFORMANCE.md, media processing).
sharp.cache(false);

export interface Rendered {
  name: 'original' | VariantName;
  data: Buffer;
  width: number;
  height: number;
}

export type RenderResult =
  | { ok: true; width: number; height: number; images: Rendered[] }
  | { ok: false; reason: string };

export const REASONS = {
  notDeclaredType: 'The file is not an image of the declared type.',
  tooManyPixels: `The image is larger than ${MAX_PIXELS / 1_000_000} megapixels.`,
  undecodable: 'The image could not be decoded (damaged or truncated).',
  tooLarge: 'The file is larger than the size declared for the upload.',
};

export async function render(bytes: Buffer, declared: MediaType): Promise<RenderResult> {
  const format = FORMATS[declared];
  let meta: Metadata;
  try {
    // Header only: no pixel is decoded here, whatever the image's dimensions.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, reason: REASONS.notDeclaredType };
  }
  if (meta.format !== format) return { ok: false, reason: REASONS.notDeclaredType };
  if (!meta.width || !meta.height) return { ok: false, reason: REASONS.undecodable };
  if (meta.width * meta.height > MAX_PIXELS) return { ok: false, reason: REASONS.tooManyPixels };

  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error' })
      .autoOrient()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    return { ok: false, reason: REASONS.undecodable };
  }
  const { width, height, channels } = decoded.info;
  const images: Rendered[] = [];
  for (const name of ['original', ...VARIANT_SIZES] as const) {
    let img = sharp(decoded.data, { raw: { width, height, channels } });
    if (name !== 'original') {
      const side = Number(name);
      img = img.resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true });
    }
    const out = await encode(img, format).toBuffer({ resolveWithObject: true });
    images.push({ name, data: out.data, width: out.info.width, height: out.info.height });
  }
  return { ok: true, width, height, images };
}

function encode(img: Sharp, format: 'jpeg' | 'png' | 'webp'): Sharp {
  if (format === 'jpeg') return img.jpeg({ quality: 82, progressive: true, mozjpeg: false });
  if (format === 'webp') return img.webp({ quality: 82 });
  return img.png({ compressionLevel: 6 });
}
