// The media item and the Media object of the API (contract section 12).
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { isId } from '../ids';

export const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];
export const MAX_UPLOAD_BYTES = 15 * 1024 * 1024;
/** Longer sides of the variants; each is never larger than the image itself. */
export const VARIANT_SIZES = ['1080', '640', '320'] as const;
export type VariantName = (typeof VARIANT_SIZES)[number];
export const MAX_PIXELS = 50_000_000;
/** How long a presigned upload URL is valid. */
export const UPLOAD_TTL_SECONDS = 15 * 60;
/** Media no post or profile uses are deleted this long after their upload was issued. */
export const UNUSED_MEDIA_TTL_SECONDS = 24 * 3600;

export const EXTENSIONS: Record<MediaType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

export type MediaStatus = 'pending' | 'ready' | 'rejected';

export interface MediaItem {
  PK: string;
  SK: string;
  /** The owner's uploads (keys.mediaOf), for the deletion of the account. */
  GSI2PK?: string;
  GSI2SK?: string;
  type: 'MEDIA';
  id: string;
  owner: string;
  status: MediaStatus;
  contentType: MediaType;
  /** The declared size: the exact byte count the presigned PUT allows. */
  size: number;
  width: number | null;
  height: number | null;
  url: string | null;
  variants: Record<VariantName, string> | null;
  reason: string | null;
  /** The path segment of its images' keys (lib/media/storage.ts newMediaSecret); absent only on an upload issued before it existed, which processing gives one. */
  secret?: string;
  /** Object keys in the bucket of the processed images (deleted with the media). */
  objectKeys?: string[];
  /** What uses it: `post#<id>` or `profile`; absent while unused. */
  usedBy?: string;
  /** The trace of the request that issued the upload: its processing is recorded there too. */
  traceId?: string;
  scenarioId?: string;
  stepId?: string;
  createdAt: string;
  updatedAt: string;
  /** TTL (epoch seconds): set while unused, removed when a post or profile uses it. */
  expiresAt?: number;
}

export interface Media {
  _id: string;
  owner: string;
  status: MediaStatus;
  contentType: MediaType;
  width: number | null;
  height: number | null;
  url: string | null;
  variants: Record<VariantName, string> | null;
  reason: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toMedia(item: MediaItem): Media {
  return {
    _id: item.id,
    owner: item.owner,
    status: item.status,
    contentType: item.contentType,
    width: item.width ?? null,
    height: item.height ?? null,
    url: item.url ?? null,
    variants: item.variants ?? null,
    reason: item.reason ?? null,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

/** A media item, strongly consistent; undefined when missing or past its TTL (DynamoDB's TTL deletes lazily). */
export async function getMedia(mediaId: string): Promise<MediaItem | undefined> {
  if (!isId(mediaId)) return undefined;
  const res = await db.send(new GetCommand({ TableName: TABLE, Key: keys.media(mediaId.toUpperCase()), ConsistentRead: true }));
  const item = res.Item as MediaItem | undefined;
  if (item?.expiresAt !== undefined && item.expiresAt * 1000 <= Date.now()) return undefined;
  return item;
}
