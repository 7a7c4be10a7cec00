// The post fields of contract section 4. `image` arrives in any of three forms (the seed's
// JSON-stringified array, a real JSON array, a single URL string) and always leaves as the
// JSON-stringified array, so storage and answers have one form.
import * as z from 'zod/mini';
import { HTTP_URL, isHttpUrl, text } from '../fields';

export const MAX_IMAGES = 20;

// The seed's form, as a pattern: a JSON array of 1-20 URL strings, written without escapes
// (a URL has no character JSON would escape). What matches it always parses.
const JSON_WS = '[ \\t\\n\\r]*';
export const IMAGE_LIST_PATTERN = `^\\s*\\[${JSON_WS}"${HTTP_URL}"(?:${JSON_WS},${JSON_WS}"${HTTP_URL}"){0,${MAX_IMAGES - 1}}${JSON_WS}\\]\\s*$`;
const IMAGE_LIST = new RegExp(IMAGE_LIST_PATTERN, 'u');
const ONE_URL_PATTERN = `^\\s*${HTTP_URL}\\s*$`;

/** The URLs an `image` input names, or a sentence saying what is wrong with it. */
export function imageUrls(input: unknown): string[] | string {
  let list: unknown = input;
  if (typeof input === 'string') {
    const s = input.trim();
    if (s.startsWith('[')) {
      if (!IMAGE_LIST.test(s)) return `must be a JSON array of 1-${MAX_IMAGES} absolute http or https URLs, an array, or a single URL`;
      list = JSON.parse(s);
    } else {
      list = [s];
    }
  }
  if (!Array.isArray(list)) return 'must be a JSON array of URLs, an array, or a single URL';
  if (list.length < 1 || list.length > MAX_IMAGES) return `must hold 1-${MAX_IMAGES} image URLs`;
  const urls: string[] = [];
  for (const u of list) {
    if (typeof u !== 'string' || !isHttpUrl(u.trim())) return 'every image must be an absolute http or https URL of at most 2048 characters';
    urls.push(u.trim());
  }
  return urls;
}

export const postImage = () =>
  z.pipe(
    z.union([z.string(), z.array(z.unknown())]).check(z.superRefine((v, ctx) => {
      const r = imageUrls(v);
      if (typeof r === 'string') ctx.issues.push({ code: 'custom', message: r, input: v });
    }), z.meta({
      anyOf: [
        { type: 'string', pattern: IMAGE_LIST_PATTERN, description: 'the seed\'s form: a JSON-stringified array of 1-20 URLs' },
        { type: 'string', pattern: ONE_URL_PATTERN, description: 'a single URL' },
        { type: 'array', minItems: 1, maxItems: MAX_IMAGES, items: { type: 'string', pattern: ONE_URL_PATTERN } },
      ],
      description: `1-${MAX_IMAGES} absolute http or https URLs of at most 2048 characters each; always stored and answered as the JSON-stringified array`,
    })),
    z.transform((v) => JSON.stringify(imageUrls(v) as string[])),
  );

export const caption = () => text(0, 2200);
// Text rules too: a control character or a lone surrogate has no place in a CDN id either.
export const imagePublicId = () => text(0, 2048);

/** Alt text (contract section 19): one trimmed string of at most 1,500 characters per image, "" for none. */
export const MAX_ALT_TEXT = 1500;
export const altText = () => z.array(text(0, MAX_ALT_TEXT)).check(
  z.maxLength(MAX_IMAGES),
  z.meta({ description: `one description per image, in the order of the images (exactly as many as there are images), each trimmed, 0-${MAX_ALT_TEXT} characters; "" for none` }),
);
