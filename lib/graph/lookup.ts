// One user and how the caller stands to them, in one BatchGet (the user item and the three
// edges of relations()), for reads that must answer 404 to a user the target blocked.
import { batchGet, itemKey } from '../db/batch';
import * as keys from '../keys';
import type { UserItem } from '../users/model';
import { readRelations, relationKeys, type Relation } from './relations';

export interface UserAndRelation {
  user: UserItem | undefined;
  relation: Relation;
  /** With `pending`: the caller has a follow request pending with the user, and muted it (contract section 18). */
  requested?: boolean;
  muted?: boolean;
}

export async function userAndRelation(callerId: string, userId: string, pending = false): Promise<UserAndRelation> {
  const extra = pending && userId !== callerId ? [keys.followRequest(callerId, userId), keys.mute(callerId, userId)] : [];
  const found = await batchGet([keys.user(userId), ...relationKeys(callerId, [userId]), ...extra]);
  return {
    user: found.get(itemKey(keys.user(userId))) as UserItem | undefined,
    relation: readRelations(callerId, [userId], found).get(userId)!,
    ...(extra.length ? { requested: found.has(itemKey(extra[0]!)), muted: found.has(itemKey(extra[1]!)) } : {}),
  };
}

/** The user when it exists and has not blocked the caller: to them, it does not exist otherwise. */
export async function visibleUser(callerId: string, userId: string): Promise<UserItem | undefined> {
  const { user, relation } = await userAndRelation(callerId, userId);
  return user && !relation.blocksCaller ? user : undefined;
}
