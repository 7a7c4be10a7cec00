// Decoding and re-encoding an uploaded image with sharp (libvips). Pure: bytes in, images
// out, or the reason they are refused. The header is read first (no pixels decoded) to
// check the real type against the declared one and the pixel count against the limit, so a
// decompression bomb is refused before it is inflated; sharp's own limitInputPixels guards
// the decode again. Every output is re-encoded from the decoded pixels with the EXIF
// orientation applied, and sharp writes no metadata unless asked (no EXIF: no GPS
// position, camera or dates; no XMP, IPTC or ICC profile).
import sharp, { type Metadata, type Sharp } from 'sharp';
import { Slots } from './slots';
import { MAX_PIXELS, VARIANT_SIZES, type MediaType, type VariantName } from './model';

const FORMATS: Record<MediaType, 'jpeg' | 'png' | 'webp'> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/webp': 'webp' };

// No operation cache: a container processes each image once, and the cache would only hold
// memory (peak memory: docs/PERFORMANCE.md, media processing).
sharp.cache(false);

/**
 * Images decoded at once in this process (contract section 12: at most two per function
 * instance). A decode holds memory in proportion to its pixels (up to MAX_PIXELS, 50
 * megapixels: 200 MB as RGBA where an orientation needs the whole image), so this bounds
 * an instance's peak whatever arrives together; the others wait their turn.
 */
export const MAX_DECODES = 2;
export const decodeSlots = new Slots(MAX_DECODES);

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

  return decodeSlots.run(() => renderDecoded(bytes, format));
}

/**
 * Each output is its own pipeline from the file's bytes: decoded, oriented, scaled and encoded
 * by libvips strip by strip where it can, so no decoded copy of the whole image is held in
 * JavaScript (a 49-megapixel PNG of 190 KB held a 147 MB raw buffer, and the process kept
 * it), and JPEG and WebP variants decode at a reduced scale.
 */
async function renderDecoded(bytes: Buffer, format: 'jpeg' | 'png' | 'webp'): Promise<RenderResult> {
  const images: Rendered[] = [];
  try {
    for (const name of ['original', ...VARIANT_SIZES] as const) {
      let img = sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error', sequentialRead: true }).autoOrient();
      if (name !== 'original') {
        const side = Number(name);
        img = img.resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true });
      }
      const out = await encode(img, format, name !== 'original').toBuffer({ resolveWithObject: true });
      images.push({ name, data: out.data, width: out.info.width, height: out.info.height });
    }
  } catch {
    return { ok: false, reason: REASONS.undecodable };
  }
  const { width, height } = images[0]!;
  return { ok: true, width, height, images };
}

/**
 * JPEG variants are encoded with mozjpeg's settings (trellis quantisation, optimised scans):
 * at the same quality they are about 8-10% smaller than plain libjpeg's on real photos, and
 * variants are nearly every byte the CDN serves (docs/PERFORMANCE.md, "What it costs"). Their
 * encoding takes longer, but they are small: the original, up to 50 megapixels, keeps plain
 * libjpeg's faster encoder, so processing stays within its time.
 */
function encode(img: Sharp, format: 'jpeg' | 'png' | 'webp', variant: boolean): Sharp {
  if (format === 'jpeg') return img.jpeg({ quality: 82, progressive: true, mozjpeg: variant });
  if (format === 'webp') return img.webp({ quality: 82 });
  return img.png({ compressionLevel: 6 });
}
