// One user and how the caller stands to them, in one BatchGet (the user item and the three
// edges of relations()), for reads that must answer 404 to a user the target blocked.
import { batchGet, itemKey } from '../db/batch';
import * as keys from '../keys';
import type { UserItem } from '../users/model';
import { readRelations, relationKeys, type Relation } from './relations';

export interface UserAndRelation {
  user: UserItem | undefined;
  relation: Relation;
}

export async function userAndRelation(callerId: string, userId: string): Promise<UserAndRelation> {
  const found = await batchGet([keys.user(userId), ...relationKeys(callerId, [userId])]);
  return {
    user: found.get(itemKey(keys.user(userId))) as UserItem | undefined,
    relation: readRelations(callerId, [userId], found).get(userId)!,
  };
}

/** The user when it exists and has not blocked the caller: to them, it does not exist otherwise. */
export async function visibleUser(callerId: string, userId: string): Promise<UserItem | undefined> {
  const { user, relation } = await userAndRelation(callerId, userId);
  return user && !relation.blocksCaller ? user : undefined;
}
