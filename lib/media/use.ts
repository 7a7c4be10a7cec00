// Media taken by a post or a profile (contract section 12), and given back. Only the
// caller's own ready media that nothing uses yet: each is checked when read and again by
// a condition inside the creating transaction. Taking one removes its TTL and re-tags its
// objects "used", so neither DynamoDB's TTL nor the bucket's lifecycle rule deletes it.
import { TABLE } from '../db/client';
import type { TxItem } from '../db/transact';
import { batchGet, batchWrite, itemKey } from '../db/batch';
import * as keys from '../keys';
import { ValidationError } from '../errors';
import { logger } from '../log';
import { deleteObjects, publicUrl, tagObject, USED_TAG, variantKey } from './storage';
import type { MediaItem } from './model';

const NOT_USABLE = 'must be the id of one of your media that is ready and not used by a post or profile yet';

const unusable = (path: string) => ValidationError.field(path, NOT_USABLE);

/**
 * The media items of `ids`, in order, if every one is the caller's, ready and unused;
 * otherwise a 400 naming the first that is not (someone else's media and a missing id get
 * the same answer, so the answer tells nothing about other users' media).
 */
export async function usableMedia(ownerId: string, ids: string[], path: string): Promise<MediaItem[]> {
  const found = await batchGet<MediaItem>(ids.map((id) => keys.media(id)));
  const now = Date.now();
  return ids.map((id, i) => {
    const item = found.get(itemKey(keys.media(id)));
    const expired = item?.expiresAt !== undefined && item.expiresAt * 1000 <= now;
    if (!item || expired || item.owner !== ownerId || item.status !== 'ready' || item.usedBy) {
      throw unusable(ids.length > 1 || path === 'media' ? `${path}.${i}` : path);
    }
    return item;
  });
}

/** Transaction items taking each media for `usedBy` (`post#<id>` or `profile`), under the same conditions. */
export function takeMedia(items: MediaItem[], usedBy: string, path: string): TxItem[] {
  const now = Math.floor(Date.now() / 1000);
  return items.map((m, i) => ({
    op: {
      Update: {
        TableName: TABLE,
        Key: keys.media(m.id),
        UpdateExpression: 'SET usedBy = :usedBy REMOVE expiresAt',
        ConditionExpression: '#owner = :owner AND #status = :ready AND attribute_not_exists(usedBy) AND expiresAt > :now',
        ExpressionAttributeNames: { '#owner': 'owner', '#status': 'status' },
        ExpressionAttributeValues: { ':usedBy': usedBy, ':owner': m.owner, ':ready': 'ready', ':now': now },
      },
    },
    onConditionFailed: () => unusable(path === 'media' ? `${path}.${i}` : path),
  }));
}

/**
 * Re-tags the objects of the media "used" so the lifecycle rule leaves them. Done before
 * the transaction that takes them: if that transaction fails, the objects merely outlive
 * their 24 hours (an orphan to sweep), never the reverse (a post pointing at expired images).
 */
export async function markObjectsUsed(items: MediaItem[]): Promise<void> {
  const objects = items.flatMap((m) => m.objectKeys ?? []);
  for (let i = 0; i < objects.length; i += 16) {
    await Promise.all(objects.slice(i, i + 16).map((k) => tagObject(k, USED_TAG)));
  }
}

/** A media's images by what names them in the bucket (variantKey). */
export interface MediaImages {
  id: string;
  secret: string;
  ext: string;
}

/** The media whose 320 variant `url` is, when it is one of ours (a profile image from imageMedia). */
export function mediaOfUrl(url: string): MediaImages | undefined {
  const m = /^media\/([0-9A-HJKMNP-TV-Z]{26})\/([A-Za-z0-9_-]{22})\/320\.(jpg|png|webp)$/.exec(url.startsWith(publicUrl('')) ? url.slice(publicUrl('').length) : '');
  return m ? { id: m[1]!, secret: m[2]!, ext: m[3]! } : undefined;
}

/**
 * The media a profile image `url` is, when it is the owner's profile media (taken through
 * imageMedia): only that one is given back when the image changes. `image` takes any URL, so
 * a profile may show a URL of our storage that is someone else's media, one of the owner's
 * posts' or one not taken: those are not the profile's to give back, and are left alone.
 */
export async function profileMediaOf(url: string, ownerId: string): Promise<MediaImages | undefined> {
  const m = mediaOfUrl(url);
  if (!m) return undefined;
  const item = (await batchGet<MediaItem>([keys.media(m.id)], { projection: '#owner, usedBy', names: { '#owner': 'owner' } })).get(itemKey(keys.media(m.id)));
  return item?.owner === ownerId && item.usedBy === 'profile' ? m : undefined;
}

/**
 * Giving back a profile's media when the profile image changes: its item goes in the edit's
 * transaction (condition: still this user's profile image), its images right after
 * (removeReplacedMedia). The media was taken, so no TTL or lifecycle rule would ever delete it.
 */
export function releaseProfileMedia(mediaId: string, ownerId: string): TxItem[] {
  return [{
    op: {
      Delete: {
        TableName: TABLE,
        Key: keys.media(mediaId),
        ConditionExpression: 'attribute_not_exists(PK) OR (#owner = :owner AND usedBy = :profile)',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': ownerId, ':profile': 'profile' },
        ReturnValuesOnConditionCheckFailure: 'NONE',
      },
    },
  }];
}

/** The images of a replaced profile media, after the edit committed. A failure leaves orphan objects (logged), never a broken profile. */
export async function removeReplacedMedia(media: MediaImages): Promise<void> {
  try {
    await deleteObjects(['original', '1080', '640', '320'].map((n) => variantKey(media.id, media.secret, n, media.ext)));
  } catch (err) {
    logger.error('media_orphaned', { mediaId: media.id, error: (err as Error).name });
  }
}

/** Deletes media for good: their images, then their items. Missing ones are skipped. */
export async function removeMedia(ids: string[]): Promise<void> {
  if (!ids.length) return;
  const found = await batchGet<MediaItem>(ids.map((id) => keys.media(id)));
  const items = [...found.values()];
  await deleteObjects(items.flatMap((m) => m.objectKeys ?? []));
  await batchWrite(items.map((m) => ({ DeleteRequest: { Key: keys.media(m.id) } })));
  logger.info('media_removed', { count: items.length });
}
