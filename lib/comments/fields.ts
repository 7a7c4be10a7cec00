// Field rules of comments (contract sections 4 and 5).
import * as z from 'zod/mini';
import { intParam, text } from '../fields';

export const COMMENT_MAX = 2200;
export const commentText = () => text(1, COMMENT_MAX);

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A cursor is the createdAt of an item we returned: exactly that ISO form, a real instant. */
export const isCursor = (s: string) => ISO_MS.test(s) && !Number.isNaN(Date.parse(s)) && new Date(s).toISOString() === s;

/** `limit` (1-50, default 10) and `cursor` of the comment and reply lists. */
export const threadQuery = () =>
  z.strictObject({
    limit: intParam(1, 50, 10),
    cursor: z.optional(z.string().check(z.refine(isCursor, 'must be the createdAt of an item (ISO 8601, UTC, milliseconds)'))),
  });
