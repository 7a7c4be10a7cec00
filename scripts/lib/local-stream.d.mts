export function lambdaInvoker(url: string): (event: unknown) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
export function consumerUrl(lambdaEndpoint: string, service?: string, stage?: string): string;
import type { StreamPoller } from './stream-poller.mjs';

export function startLocalStream(opts: {
  endpoint: string;
  tableName: string;
  lambdaEndpoint: string;
  service?: string;
  stage?: string;
  deadLetterFile?: string;
  checkpointFile?: string;
  say?(line: string): void;
}): StreamPoller;
