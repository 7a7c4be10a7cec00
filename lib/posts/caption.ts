// What a caption carries besides its text (contract section 19): its hashtags (at most
// MAX_HASHTAGS distinct, else 400) and the accounts it mentions (at most MAX_MENTIONS names).
import { ValidationError } from '../errors';
import { hashtagsOf, MAX_HASHTAGS } from '../text/tags';
import { mentionedIds, mentionNames } from '../users/mentions';

/** The caption's hashtags; a 400 on `caption` past MAX_HASHTAGS. */
export function captionHashtags(caption: string): string[] {
  const tags = hashtagsOf(caption);
  if (tags.length > MAX_HASHTAGS) throw ValidationError.field('caption', `may carry at most ${MAX_HASHTAGS} distinct hashtags`);
  return tags;
}

/** The caption's hashtags and mentioned account ids (checked before anything is read). */
export async function captionFields(caption: string): Promise<{ hashtags: string[]; mentions: string[] }> {
  const hashtags = captionHashtags(caption);
  const names = mentionNames(caption, 'caption');
  return { hashtags, mentions: await mentionedIds(names) };
}

/** Alt text as given must name exactly one text per image. */
export function checkAltText(altText: string[] | undefined, n: number): void {
  if (altText && altText.length !== n) throw ValidationError.field('altText', `must hold exactly one text per image (${n})`);
}
