// Trace log records (contract section 9). A mutation puts its record in the same
// transaction as its change (logItem), so a change without its record cannot exist.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { newId } from '../ids';
import { db, TABLE } from '../db/client';
import { countedChange, transactChange, type Counted, type Counter, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { config } from '../config';
import type { TraceContext } from './context';
import { redact } from './redact';
import { noChange, type StateDiff } from './diff';

export type LogLevel = 'INFO' | 'WARN' | 'ERROR';

/** The actor of a record no account can be named for (a refused token, a public request). */
export const ANONYMOUS = 'anonymous';

export interface LogEntry {
  type: string; // UPPER_SNAKE, e.g. POST_CREATED
  description: string;
  actorId: string;
  level?: LogLevel;
  payload?: Record<string, unknown>;
  diff?: StateDiff;
}

export interface LogRecord {
  _id: string;
  scenarioId: string;
  stepId: string;
  traceId: string;
  simTimestamp: number;
  level: LogLevel;
  action: { type: string; description: string };
  actor: { type: 'user'; id: string };
  payload: Record<string, unknown>;
  stateDiff: StateDiff;
  createdAt: string;
}

export function buildLogRecord(trace: TraceContext, entry: LogEntry): LogRecord {
  return {
    _id: newId(),
    scenarioId: trace.scenarioId,
    stepId: trace.stepId,
    traceId: trace.traceId,
    simTimestamp: trace.simTimestamp,
    level: entry.level ?? 'INFO',
    action: { type: entry.type, description: entry.description },
    actor: { type: 'user', id: entry.actorId },
    payload: redact(entry.payload ?? {}) as Record<string, unknown>,
    stateDiff: redact(entry.diff ?? noChange()) as StateDiff,
    createdAt: new Date().toISOString(),
  };
}

function toItem(record: LogRecord): Record<string, unknown> {
  return {
    ...keys.log(record.traceId, record.actor.id, record._id),
    type: 'LOG',
    // The actor is in the sort key: no `actorId` attribute (records written before have one).
    ...record,
    expiresAt: Math.floor(Date.now() / 1000) + Math.round(config.logRetentionDays * 86_400),
  };
}

/** The Put of a record, to go into the mutation's own transaction. */
export function logItem(trace: TraceContext, entry: LogEntry): TxItem {
  return { op: { Put: { TableName: TABLE, Item: toItem(buildLogRecord(trace, entry)) } } };
}

/** A record written on its own: for requests whose only write is not transactional, or none. */
export async function writeLog(trace: TraceContext, entry: LogEntry): Promise<void> {
  await db.send(new PutCommand({ TableName: TABLE, Item: toItem(buildLogRecord(trace, entry)) }));
}

/**
 * An idempotent change with its record: `items` and the record in one transaction; when
 * `edge` was already as asked (see transactChange), only a record that nothing changed,
 * described as `unchanged`. True when it changed something.
 */
export async function recordChange(trace: TraceContext, items: TxItem[], edge: TxItem, entry: LogEntry, unchanged: string): Promise<boolean> {
  const changed = await transactChange([...items, logItem(trace, entry)], edge);
  if (!changed) await recordNoChange(trace, entry, unchanged);
  return changed;
}

/**
 * recordChange for a change whose answer carries a counter (lib/db/transact.ts countedChange):
 * `items(step)` builds the change around the counter's step; the record goes in with it.
 */
export async function recordCountedChange(
  trace: TraceContext, items: (step: TxItem) => TxItem[], edge: TxItem, counter: Counter, entry: LogEntry, unchanged: string,
): Promise<Counted> {
  const log = logItem(trace, entry);
  const result = await countedChange((step) => [...items(step), log], edge, counter);
  if (!result.changed) await recordNoChange(trace, entry, unchanged);
  return result;
}

/** The record of a request that changed nothing (an idempotent no-op). */
export function recordNoChange(trace: TraceContext, entry: Omit<LogEntry, 'description' | 'diff'>, unchanged: string): Promise<void> {
  return writeLog(trace, { ...entry, description: unchanged, diff: noChange() });
}

/** Strips the storage attributes of a log item, leaving the record of the contract. */
export function fromLogItem(item: Record<string, unknown>): LogRecord {
  const { PK: _pk, SK: _sk, type: _t, actorId: _a, expiresAt: _e, ...record } = item;
  return record as unknown as LogRecord;
}
