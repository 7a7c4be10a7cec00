// Mute and unmute (contract section 18): a mute edge in the muter's partition (keys.mute),
// read by key for the few authors of a page (lib/graph/visibility.ts mutedAmong) and by the
// notifications' stream before telling the muter of an action. Nothing the muted account can
// read changes. Idempotent like follows: muting twice leaves one edge.
import { TABLE } from '../db/client';
import type { TxItem } from '../db/transact';
import * as keys from '../keys';
import { NotFound } from '../errors';
import { recordChange } from '../audit/records';
import { diffState } from '../audit/diff';
import type { TraceContext } from '../audit/context';
import { notGone } from '../users/gone';
import { targetExists } from './edges';

export function muteEdge(muterId: string, mutedId: string, createdAt: string) {
  return { ...keys.mute(muterId, mutedId), ...keys.muteIndexes(muterId, mutedId, createdAt), type: 'MUTE', muterId, mutedId, createdAt };
}

/** To a user the target blocked (and for a hidden account), the target does not exist: 404. */
const visibleTarget = (callerId: string, targetId: string): TxItem[] => [
  targetExists(targetId),
  notGone(targetId, () => new NotFound('user')),
  { op: { ConditionCheck: { TableName: TABLE, Key: keys.block(targetId, callerId), ConditionExpression: 'attribute_not_exists(PK)' } }, onConditionFailed: () => new NotFound('user') },
];

export async function mute(callerId: string, targetId: string, trace: TraceContext, payload: Record<string, unknown>): Promise<boolean> {
  const edge = muteEdge(callerId, targetId, new Date().toISOString());
  const put: TxItem = { op: { Put: { TableName: TABLE, Item: edge, ConditionExpression: 'attribute_not_exists(PK)' } } };
  return recordChange(trace, [...visibleTarget(callerId, targetId), put], put, {
    type: 'USER_MUTED', description: `User ${callerId} muted user ${targetId}.`, actorId: callerId, payload,
    diff: diffState(null, { muterId: callerId, mutedId: targetId, createdAt: edge.createdAt }),
  }, `User ${callerId} already mutes user ${targetId}; nothing changed.`);
}

export async function unmute(callerId: string, targetId: string, trace: TraceContext, payload: Record<string, unknown>): Promise<boolean> {
  const del: TxItem = { op: { Delete: { TableName: TABLE, Key: keys.mute(callerId, targetId), ConditionExpression: 'attribute_exists(PK)' } } };
  return recordChange(trace, [...visibleTarget(callerId, targetId), del], del, {
    type: 'USER_UNMUTED', description: `User ${callerId} unmuted user ${targetId}.`, actorId: callerId, payload,
    diff: diffState({ muterId: callerId, mutedId: targetId }, null),
  }, `User ${callerId} does not mute user ${targetId}; nothing changed.`);
}
