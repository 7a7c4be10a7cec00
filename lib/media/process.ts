// Processing an upload, from the storage's ObjectCreated event of `uploads/<mediaId>`:
// everything the storage let through is checked again here (the real size, the real type
// from the bytes, the pixel count), so a lax storage (the local server accepts unsigned
// writes) never lets a bad file through. A ready media's images are written under
// `media/<id>/<secret>/`, tagged unused (the bucket's lifecycle rule expires them after a day unless
// a post or profile takes them); the raw upload is deleted either way. The item moves from
// `pending` once, under a condition, so a repeated or concurrent event changes nothing, and
// bytes written to the key once it has moved are deleted without being read.
import { TABLE } from '../db/client';
import { ConditionFailed, transact } from '../db/transact';
import * as keys from '../keys';
import { logItem } from '../audit/records';
import { diffState } from '../audit/diff';
import { logger } from '../log';
import type { TraceContext } from '../audit/context';
import { deleteObjects, newMediaSecret, publicUrl, putImage, readObject, UPLOAD_KEY, uploadKey, variantKey } from './storage';
import { EXTENSIONS, getMedia, MAX_UPLOAD_BYTES, type MediaItem, type VariantName } from './model';
import { auditableMedia } from './uploads';
import { REASONS, render } from './render';

export type ProcessOutcome = 'ready' | 'rejected' | 'ignored';

/** The trace of the upload's issuing request, so its processing shows in the same trace. */
const traceOf = (item: MediaItem): TraceContext => ({
  traceId: item.traceId ?? `media:${item.id}`,
  scenarioId: item.scenarioId ?? '',
  stepId: item.stepId ?? '',
  simTimestamp: Date.now(),
});

async function settle(item: MediaItem, changes: Partial<MediaItem>, type: string, description: string): Promise<boolean> {
  const next: MediaItem = { ...item, ...changes, updatedAt: new Date().toISOString() };
  const fields = Object.keys(changes).concat('updatedAt') as (keyof MediaItem)[];
  try {
    await transact([
      {
        op: {
          Update: {
            TableName: TABLE,
            Key: keys.media(item.id),
            UpdateExpression: `SET ${fields.map((f) => `#${f} = :${f}`).join(', ')}`,
            ConditionExpression: '#status = :pending',
            ExpressionAttributeNames: Object.fromEntries([...fields, 'status'].map((f) => [`#${f}`, f])),
            ExpressionAttributeValues: { ...Object.fromEntries(fields.map((f) => [`:${f}`, next[f]])), ':pending': 'pending' },
          },
        },
      },
      logItem(traceOf(item), {
        type,
        description,
        actorId: item.owner,
        payload: { mediaId: item.id },
        diff: diffState({ status: item.status }, { ...auditableMedia(next), status: next.status }),
      }),
    ]);
    return true;
  } catch (err) {
    // Processed already by a concurrent delivery of the same event.
    if (err instanceof ConditionFailed) return false;
    throw err;
  }
}

/** Processes the object `key` of the media bucket. Safe to repeat. */
export async function processUpload(key: string): Promise<ProcessOutcome> {
  const match = UPLOAD_KEY.exec(key);
  if (!match) return 'ignored';
  const mediaId = match[1]!;
  const item = await getMedia(mediaId);
  if (!item) {
    // No such upload was issued, or it expired: the bytes have no owner.
    await deleteObjects([key]);
    return 'ignored';
  }
  if (item.status !== 'pending') {
    // Bytes written after the upload was processed (its presigned URL used again before it
    // expired): never processed, never served, deleted unread. A repeated delivery of the
    // first write's event finds the key gone already, which deletes nothing.
    await deleteObjects([key]);
    return 'ignored';
  }

  const read = await readObject(key, Math.min(item.size, MAX_UPLOAD_BYTES));
  if (!read) return 'ignored';
  let outcome: ProcessOutcome;
  const result = read.tooLarge ? { ok: false as const, reason: REASONS.tooLarge } : await render(read.bytes, item.contentType);
  if (!result.ok) {
    await settle(item, { status: 'rejected', reason: result.reason }, 'MEDIA_REJECTED', `A media upload was rejected: ${result.reason}`);
    outcome = 'rejected';
  } else {
    const ext = EXTENSIONS[item.contentType];
    const secret = item.secret ?? newMediaSecret();
    const stored = result.images.map((img) => ({ ...img, key: variantKey(mediaId, secret, img.name, ext) }));
    await Promise.all(stored.map((img) => putImage(img.key, img.data, item.contentType)));
    const url = (name: string) => publicUrl(stored.find((s) => s.name === name)!.key);
    const variants = { 1080: url('1080'), 640: url('640'), 320: url('320') } as Record<VariantName, string>;
    await settle(item, {
      status: 'ready', width: result.width, height: result.height, url: url('original'), variants, objectKeys: stored.map((s) => s.key),
    }, 'MEDIA_PROCESSED', 'A media upload was processed and is ready.');
    outcome = 'ready';
    logger.info('media_processed', { mediaId, width: result.width, height: result.height });
  }
  await deleteObjects([uploadKey(mediaId)]);
  return outcome;
}
