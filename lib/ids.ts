// Identifiers are ULIDs: 26 characters of Crockford base32, time-sortable, URL-safe.
// A username can never have this form (lib/users/fields.ts refuses it), so a path
// segment is an id exactly when it matches ID_PATTERN.
import { monotonicFactory } from 'ulid';

export const ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/i;
export const isId = (s: string) => ID_PATTERN.test(s);

const next = monotonicFactory();
/** A new id; monotonic within this process, so ids made in one millisecond still sort in order. */
export const newId = (): string => next();
