// A stored hash of weaker parameters is replaced at the account's next successful check
// (contract section 3). Apart from lib/users/write.ts, which does not hash: only the functions
// that check a password load the native Argon2 package (resources/argon2-package.js).
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { logger } from '../log';
import type { UserItem } from './model';
import { hashPassword, needsRehash } from './password';
import { saltClaims } from './write';

/**
 * After a successful check of `password`: a stored hash of weaker parameters than new ones
 * (scrypt N=2^14) is replaced by a new one (contract section 3), while it is still the one
 * checked; its claims take the new salt. Never an error of the request: a failure leaves the old
 * hash, replaced at a later check.
 */
export async function upgradeHash(user: Pick<UserItem, 'id' | 'username' | 'email' | 'passwordHash'>, password: string): Promise<void> {
  if (!needsRehash(user.passwordHash)) return;
  try {
    const next = await hashPassword(password);
    await db.send(new UpdateCommand({
      TableName: TABLE,
      Key: keys.user(user.id),
      UpdateExpression: 'SET passwordHash = :next',
      ConditionExpression: 'passwordHash = :old AND attribute_not_exists(deletedAt)',
      ExpressionAttributeValues: { ':next': next, ':old': user.passwordHash },
    }));
    await saltClaims(user, next);
  } catch (err) {
    // A password change or a deletion since the check: nothing to replace.
    if ((err as Error).name !== 'ConditionalCheckFailedException') logger.warn('hash_upgrade_failed', { userId: user.id, message: (err as Error).message });
  }
}

