// Writing users: registration and profile edits. Each is one transaction holding the
// user item, its unique claims (username, e-mail), its search index items and its trace
// record, so uniqueness is atomic and nothing is ever half-written.
import { db, TABLE } from '../db/client';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { transact, type TxItem } from '../db/transact';
import { batchGet, itemKey } from '../db/batch';
import * as keys from '../keys';
import { newId } from '../ids';
import { Conflict } from '../errors';
import { logItem } from '../audit/records';
import { diffState } from '../audit/diff';
import type { TraceContext } from '../audit/context';
import type { EditableField, UserItem } from './model';
import { searchTerms, termKey, type SearchTerm } from './search-terms';
import { saltOf } from './hash-form';
import { logger } from '../log';

const usernameTaken = () => new Conflict('USERNAME_TAKEN', 'This username is already taken.');
const emailTaken = () => new Conflict('EMAIL_TAKEN', 'An account with this e-mail address already exists.');

/** A search prefix item: one per (term, user). */
export const searchItem = (t: SearchTerm, userId: string) => ({ ...keys.search(t.kind, t.term, userId), type: 'SEARCH', kind: t.kind, term: t.term, userId });
/**
 * A unique claim (username or e-mail) of a user. `salt`: the parameters and salt of the
 * account's password hash (no key), so a login hashes beside its read of the user item
 * (functions/auth/login.ts); a claim without it, or with one the hash no longer has, is
 * checked after that read.
 */
export const claimItem = (key: { PK: string; SK: string }, userId: string, passwordHash?: string) => {
  const salt = saltOf(passwordHash);
  return { ...key, type: 'CLAIM', userId, ...(salt ? { salt } : {}) };
};

const searchPut = (t: SearchTerm, userId: string): TxItem => ({ op: { Put: { TableName: TABLE, Item: searchItem(t, userId) } } });
const searchDelete = (t: SearchTerm, userId: string): TxItem => ({
  op: { Delete: { TableName: TABLE, Key: keys.search(t.kind, t.term, userId) } },
});
const claimPut = (key: { PK: string; SK: string }, userId: string, passwordHash: string, onTaken: () => Conflict): TxItem => ({
  op: {
    Put: {
      TableName: TABLE,
      Item: claimItem(key, userId, passwordHash),
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  },
  onConditionFailed: onTaken,
});

/**
 * Puts the salt of a new password hash on the account's two claims (claimItem), each only
 * while it is still this account's. Not part of the change's transaction: a claim a racing
 * username change has just moved would fail the change itself, and a claim left with the old
 * salt only makes logins check after their read of the user item.
 */
export async function saltClaims(user: Pick<UserItem, 'id' | 'username' | 'email'>, passwordHash: string): Promise<void> {
  await Promise.all([keys.username(user.username), keys.email(user.email)].map((key) => saltClaim(key, user.id, passwordHash)));
}

/**
 * One claim takes the salt of `passwordHash`, while it is still `userId`'s. Never an error:
 * the salt only spares logins a round trip, and a claim without it is still checked right
 * (a login also gives it to a claim written before the salt was kept, functions/auth/login.ts).
 */
export async function saltClaim(key: { PK: string; SK: string }, userId: string, passwordHash: string, opts: { seen?: unknown } = {}): Promise<void> {
  const salt = saltOf(passwordHash);
  if (!salt) return;
  let condition = 'userId = :me';
  const values: Record<string, unknown> = { ':salt': salt, ':me': userId };
  // `seen`: a login's repair applies only to the salt it read (none, or a stale one), never over
  // the one a password change has written since.
  if ('seen' in opts && typeof opts.seen === 'string') {
    condition += ' AND salt = :seen';
    values[':seen'] = opts.seen;
  } else if ('seen' in opts) {
    condition += ' AND attribute_not_exists(salt)';
  }
  try {
    await db.send(new UpdateCommand({ TableName: TABLE, Key: key, UpdateExpression: 'SET salt = :salt', ConditionExpression: condition, ExpressionAttributeValues: values }));
  } catch (err) {
    // Another account's claim now (or none), or a salt written since: nothing to update.
    if ((err as Error).name !== 'ConditionalCheckFailedException') {
      logger.warn('claim_salt_failed', { userId, claim: key.PK.split('#')[0], message: (err as Error).message });
    }
  }
}

/**
 * The items that make an account findable by its names: its username and e-mail claims (so
 * both can be registered again at once) and its search items; deleted, for the deletion of
 * the account. A claim is deleted only while it is this account's.
 */
export function releaseNames(user: Pick<UserItem, 'id' | 'username' | 'email' | 'name'>): TxItem[] {
  const claim = (key: { PK: string; SK: string }): TxItem => ({
    op: { Delete: { TableName: TABLE, Key: key, ConditionExpression: 'userId = :id', ExpressionAttributeValues: { ':id': user.id } } },
  });
  return [claim(keys.username(user.username)), claim(keys.email(user.email)), ...searchTerms(user).map((t) => searchDelete(t, user.id))];
}

export interface NewUser {
  name: string;
  username: string;
  email: string;
  passwordHash: string;
}

/** What a log record may show of a user: never the hash, never the e-mail. */
export function auditable(u: Partial<UserItem>): Record<string, unknown> {
  const { id: _id, name, username, bio, gender, image, emailVerified, isPrivate, createdAt } = u;
  return Object.fromEntries(Object.entries({ _id, name, username, bio, gender, image, emailVerified, isPrivate, createdAt }).filter(([, v]) => v !== undefined));
}

/** A new account's user item, counters at zero. */
export function newUserItem(id: string, input: NewUser, now: string): UserItem {
  return {
    ...keys.user(id),
    type: 'USER',
    id,
    name: input.name,
    username: input.username,
    email: input.email,
    passwordHash: input.passwordHash,
    image: '',
    bio: '',
    gender: '',
    emailVerified: false,
    createdAt: now,
    updatedAt: now,
    postsCount: 0,
    followersCount: 0,
    followingCount: 0,
    blockedCount: 0,
    GSI3PK: keys.popular(id).GSI3PK,
  };
}

/**
 * The Conflict registration's transaction would throw for a username or e-mail claimed
 * already (the username's first, as the transaction names it), from one BatchGet of the two
 * claims. Registration reads them while the password hashes (functions/auth/register.ts): an
 * early answer only, as the transaction's conditions still decide a claim of the moment
 * between. Strongly consistent: a deleted account's names are free again at once.
 */
export async function refuseClaimed(username: string, email: string): Promise<void> {
  const found = await batchGet([keys.username(username), keys.email(email)], { projection: 'userId' });
  if (found.has(itemKey(keys.username(username)))) throw usernameTaken();
  if (found.has(itemKey(keys.email(email)))) throw emailTaken();
}

/** `also`: more items of the same transaction, given the new user (its first session). */
export async function registerUser(input: NewUser, trace: TraceContext, payload: Record<string, unknown>, also: (user: UserItem) => TxItem[] = () => []): Promise<UserItem> {
  const id = newId();
  // No follows yet, and the (empty) recent arrays reflect that (lib/graph/recent.ts). Items
  // written by other means (benchmark loaders) carry no recentV and are read the old way.
  const user: UserItem = { ...newUserItem(id, input, new Date().toISOString()), recentV: 0 };
  await transact([
    ...also(user),
    claimPut(keys.username(user.username), id, user.passwordHash, usernameTaken),
    claimPut(keys.email(user.email), id, user.passwordHash, emailTaken),
    { op: { Put: { TableName: TABLE, Item: user, ConditionExpression: 'attribute_not_exists(PK)' } } },
    ...searchTerms(user).map((t) => searchPut(t, id)),
    logItem(trace, {
      type: 'USER_REGISTERED',
      description: `User @${user.username} registered.`,
      actorId: id,
      payload,
      diff: diffState(null, auditable(user)),
    }),
  ]);
  return user;
}

/** A timestamp strictly after `previous`, so updatedAt always moves forward. */
export function nextTimestamp(previous: string): string {
  const now = Date.now();
  const prev = Date.parse(previous);
  return new Date(Number.isNaN(prev) || now > prev ? now : prev + 1).toISOString();
}

export type ProfileChanges = Partial<Record<Exclude<EditableField, 'isPrivate'>, string>> & { isPrivate?: boolean };

/**
 * Applies a partial profile edit to `current`, optimistically: the update is conditional
 * on `updatedAt`, so a concurrent edit makes this one fail (the caller retries on a fresh read).
 */
export async function editProfile(current: UserItem, changes: ProfileChanges, trace: TraceContext, payload: Record<string, unknown>, extra: TxItem[] = []): Promise<UserItem> {
  const next: UserItem = { ...current, ...changes, updatedAt: nextTimestamp(current.updatedAt) };
  // `extra`: items of the same edit outside the user's own (an uploaded media taken or given back, lib/media/use.ts).
  const items: TxItem[] = [...extra];

  if (next.username !== current.username) {
    items.push(
      // A password change racing this edit can leave the new claim with the old salt: a
      // login then checks after its read of the user item, as before the salt was kept.
      claimPut(keys.username(next.username), current.id, current.passwordHash, usernameTaken),
      {
        op: {
          Delete: {
            TableName: TABLE,
            Key: keys.username(current.username),
            ConditionExpression: 'userId = :me',
            ExpressionAttributeValues: { ':me': current.id },
          },
        },
      },
    );
  }
  const before = new Map(searchTerms(current).map((t) => [termKey(t), t]));
  const after = new Map(searchTerms(next).map((t) => [termKey(t), t]));
  for (const [k, t] of before) if (!after.has(k)) items.push(searchDelete(t, current.id));
  for (const [k, t] of after) if (!before.has(k)) items.push(searchPut(t, current.id));

  const fields = Object.keys(changes) as EditableField[];
  const names: Record<string, string> = { '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':updatedAt': next.updatedAt, ':prev': current.updatedAt };
  for (const f of fields) {
    names[`#${f}`] = f;
    values[`:${f}`] = next[f];
  }
  // Turning `isPrivate` moves the account's posts between the public and the private counts of
  // the global post counter (explore's total, lib/posts/write.ts), on condition that no post
  // came or went since postsCount was read.
  let postsCondition = '';
  if (next.isPrivate !== undefined && (next.isPrivate === true) !== (current.isPrivate === true)) {
    const posts = Number(current.postsCount ?? 0);
    postsCondition = posts === 0 ? ' AND (attribute_not_exists(postsCount) OR postsCount = :posts)' : ' AND postsCount = :posts';
    values[':posts'] = posts;
    if (posts > 0) {
      items.push({
        op: {
          Update: {
            TableName: TABLE,
            Key: keys.postCounterShard(keys.shardOf(current.id, keys.FEED_SHARDS)),
            UpdateExpression: 'ADD privatePosts :n',
            ExpressionAttributeValues: { ':n': next.isPrivate === true ? posts : -posts },
          },
        },
      });
    }
  }
  items.push({
    op: {
      Update: {
        TableName: TABLE,
        Key: keys.user(current.id),
        UpdateExpression: `SET ${['updatedAt', ...fields].map((f) => `#${f} = :${f}`).join(', ')}`,
        // Not over a deletion or a suspension that committed since the caller was read.
        ConditionExpression: `#updatedAt = :prev AND attribute_not_exists(deletedAt) AND attribute_not_exists(suspendedAt)${postsCondition}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  });
  items.push(logItem(trace, {
    type: 'PROFILE_UPDATED',
    description: `User @${next.username} updated their profile.`,
    actorId: current.id,
    payload,
    diff: diffState(
      { ...auditable(current), updatedAt: current.updatedAt },
      { ...auditable(next), updatedAt: next.updatedAt },
    ),
  }));
  await transact(items);
  return next;
}
