export interface DeadLetterLine { at?: string; record: Record<string, unknown>; error: string; attempts: number; redrivenAt?: string }
export function readDeadLetters(file: string): DeadLetterLine[];
export function redriveDeadLetters(opts: {
  file: string;
  invoke(event: { Records: Record<string, unknown>[] }): Promise<{ batchItemFailures?: { itemIdentifier: string }[] } | void>;
  log?(line: string): void;
}): Promise<{ redriven: number; kept: number }>;
export function redriveAsyncDeadLetters(opts: {
  file: string;
  invoke(functionName: string, event: unknown): Promise<void>;
  log?(line: string): void;
}): Promise<{ redriven: number; kept: number }>;
