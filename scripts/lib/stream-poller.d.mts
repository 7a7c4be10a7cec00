export interface DeadLetter { record: Record<string, unknown>; error: string; attempts: number }
export interface StreamPoller { idle(): Promise<void>; readonly busy: boolean; stop(): Promise<void> }
export interface PollerOptions {
  endpoint: string;
  tableName: string;
  invoke(event: { Records: Record<string, unknown>[] }): Promise<{ batchItemFailures?: { itemIdentifier: string }[] } | void>;
  batchSize?: number;
  maxRetries?: number;
  bisectOnError?: boolean;
  filterPatterns?: Record<string, unknown>[];
  onDeadLetter?(letter: DeadLetter): void | Promise<void>;
  /** Where a shard without a checkpoint starts: its oldest record (default) or what comes next (DynamoDB Local may refuse a LATEST iterator once records arrive; it is then taken again at LATEST, skipping them). */
  startingPosition?: 'TRIM_HORIZON' | 'LATEST';
  checkpointFile?: string;
  pollMs?: number;
  log?(line: string): void;
}
export function startStreamPoller(opts: PollerOptions): StreamPoller;
export function matchesPattern(value: unknown, pattern: unknown): boolean;
export function passesFilters(record: unknown, patterns: unknown[]): boolean;
export function consumerMapping(root: string): { functionName: string; batchSize: number; maxRetries: number; bisectOnError: boolean; filterPatterns: Record<string, unknown>[] };
/** A GetRecords unanswered this long is dropped and asked again from the checkpoint. */
export const GET_RECORDS_TIMEOUT_MS: number;
