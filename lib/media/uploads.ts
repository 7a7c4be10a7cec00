// Issuing an upload: counted against the owner's hourly rate, the media item (pending, TTL
// 24 hours) and its trace record in one transaction, and a presigned PUT for the client to
// send the bytes straight to storage.
import { TABLE } from '../db/client';
import { transact, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { idTime, newId } from '../ids';
import { logItem } from '../audit/records';
import { diffState } from '../audit/diff';
import type { TraceContext } from '../audit/context';
import { newMediaSecret, presignUpload } from './storage';
import { admitUpload, withdrawUpload } from './upload-rate';
import { UNUSED_MEDIA_TTL_SECONDS, UPLOAD_TTL_SECONDS, type MediaItem, type MediaType } from './model';

export interface Upload {
  mediaId: string;
  method: 'PUT';
  url: string;
  fields: Record<string, string>;
  headers: Record<string, string>;
  maxBytes: number;
  expiresAt: string;
}

/** What a log record shows of a media item. */
export const auditableMedia = (m: Partial<MediaItem>) => Object.fromEntries(Object.entries({
  _id: m.id, owner: m.owner, status: m.status, contentType: m.contentType, width: m.width, height: m.height, reason: m.reason, createdAt: m.createdAt,
}).filter(([, v]) => v !== undefined));

/** The pending item and the upload instructions; nothing is written yet. */
export async function buildUpload(ownerId: string, contentType: MediaType, size: number, trace: TraceContext): Promise<{ item: MediaItem; upload: Upload }> {
  const id = newId();
  const issued = idTime(id);
  const createdAt = new Date(issued).toISOString();
  const item: MediaItem = {
    ...keys.media(id),
    GSI2PK: keys.mediaOf(ownerId),
    GSI2SK: id,
    type: 'MEDIA',
    id,
    owner: ownerId,
    status: 'pending',
    contentType,
    size,
    width: null,
    height: null,
    url: null,
    variants: null,
    reason: null,
    secret: newMediaSecret(),
    traceId: trace.traceId,
    scenarioId: trace.scenarioId,
    stepId: trace.stepId,
    createdAt,
    updatedAt: createdAt,
    expiresAt: Math.floor(issued / 1000) + UNUSED_MEDIA_TTL_SECONDS,
  };
  const url = await presignUpload(id, contentType, size, UPLOAD_TTL_SECONDS);
  return {
    item,
    upload: {
      mediaId: id,
      method: 'PUT',
      url,
      fields: {},
      // Exactly these: both are signed into the URL.
      headers: { 'Content-Type': contentType, 'Content-Length': String(size) },
      maxBytes: size,
      expiresAt: new Date(issued + UPLOAD_TTL_SECONDS * 1000).toISOString(),
    },
  };
}

/**
 * Issues the upload: counted against its owner's hourly window first (429 past it,
 * lib/media/upload-rate.ts), then the item written. A creation that fails takes its count
 * back, so the window holds issued uploads only.
 */
export async function createUpload(item: MediaItem, trace: TraceContext, payload: Record<string, unknown>, extra: TxItem[]): Promise<void> {
  await admitUpload(item.owner, item.id);
  try {
    await transact([
      { op: { Put: { TableName: TABLE, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } } },
      logItem(trace, {
        type: 'MEDIA_UPLOAD_CREATED',
        description: 'An upload of a media file was issued.',
        actorId: item.owner,
        payload,
        diff: diffState(null, auditableMedia(item)),
      }),
      ...extra,
    ]);
  } catch (err) {
    await withdrawUpload(item.owner, item.id).catch(() => undefined);
    throw err;
  }
}
