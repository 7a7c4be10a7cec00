export interface LocalAsync {
  dispatch(functionName: string, event: unknown): void;
  endpoint: Promise<string>;
  drain(): Promise<void>;
  stop(): Promise<void>;
}
export function startLocalAsync(options: {
  lambdaEndpoint: string;
  retriesOf?: (name: string) => number;
  backoffMs?: number[];
  deadLetterFile?: string;
  say?: (msg: string) => void;
}): LocalAsync;
export function invokeFunction(lambdaEndpoint: string, functionName: string, event: unknown): Promise<void>;
