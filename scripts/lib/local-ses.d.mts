export interface LocalSes { endpoint: string; port: number; stop(): Promise<void> }
export function startLocalSes(opts?: { port?: number }): Promise<LocalSes>;
