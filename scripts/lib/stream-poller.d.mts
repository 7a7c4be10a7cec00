export interface DeadLetter { record: Record<string, unknown>; error: string; attempts: number }
export interface StreamPoller {
  /** Resolves after a pass that found nothing to deliver, started after this call. */
  idle(): Promise<void>;
  /** Resolves once every shard has been read once: every change written after it is delivered. */
  ready(): Promise<void>;
  readonly busy: boolean;
  stop(): Promise<void>;
}
export interface PollerOptions {
  endpoint: string;
  tableName: string;
  invoke(event: { Records: Record<string, unknown>[] }): Promise<{ batchItemFailures?: { itemIdentifier: string }[] } | void>;
  batchSize?: number;
  maxRetries?: number;
  bisectOnError?: boolean;
  filterPatterns?: Record<string, unknown>[];
  onDeadLetter?(letter: DeadLetter): void | Promise<void>;
  /**
   * Where a shard found by the first look at the stream starts when it has no checkpoint: its
   * oldest record (default) or what is written next. Shards found later start at their oldest
   * record. At LATEST, wait for ready() before writing what must be delivered.
   */
  startingPosition?: 'TRIM_HORIZON' | 'LATEST';
  checkpointFile?: string;
  pollMs?: number;
  log?(line: string): void;
}
export function startStreamPoller(opts: PollerOptions): StreamPoller;
export function matchesPattern(value: unknown, pattern: unknown): boolean;
export function passesFilters(record: unknown, patterns: unknown[]): boolean;
export function consumerMapping(root: string): { functionName: string; batchSize: number; maxRetries: number; bisectOnError: boolean; filterPatterns: Record<string, unknown>[] };
/** A GetRecords unanswered this long, or whose answer is silent this long, is dropped and asked again from the checkpoint. */
export const GET_RECORDS_TIMEOUT_MS: number;
