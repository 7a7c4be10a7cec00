// Field rules of comments (contract sections 4 and 5).
import * as z from 'zod/mini';
import { intParam, text } from '../fields';

export const COMMENT_MAX = 2200;
export const commentText = () => text(1, COMMENT_MAX);

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

// A real instant in exactly that form, as a pattern: the days of each month, 29 February
// in leap years only (what isCursor's round trip through Date accepts).
const LEAP = '(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)';
const DAY = '(?:[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))|' + LEAP + '-02-29)';
export const INSTANT_PATTERN = `^${DAY}T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]\\.[0-9]{3}Z$`;

/** A cursor is the createdAt of an item we returned: exactly that ISO form, a real instant. */
export const isCursor = (s: string) => ISO_MS.test(s) && !Number.isNaN(Date.parse(s)) && new Date(s).toISOString() === s;

/** `limit` (1-50, default 10) and `cursor` of the comment and reply lists. */
export const threadQuery = () =>
  z.strictObject({
    limit: intParam(1, 50, 10),
    cursor: z.optional(z.string().check(
      z.refine(isCursor, 'must be the createdAt of an item (ISO 8601, UTC, milliseconds)'),
      z.meta({ format: 'date-time', pattern: INSTANT_PATTERN, description: 'the createdAt of the last item of the previous batch (exclusive)' }),
    )),
  });
