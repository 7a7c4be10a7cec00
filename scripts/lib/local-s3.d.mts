export interface LocalS3 { endpoint: string; port: number; bucket: string; stop(): Promise<void> }
export const LOCAL_MEDIA_BUCKET: string;
export const LOCAL_S3_CREDENTIALS: { accessKeyId: string; secretAccessKey: string };
export function startLocalS3(opts?: { port?: number; bucket?: string; directory?: string; onEvent?: (event: any) => void }): Promise<LocalS3>; // eslint-disable-line @typescript-eslint/no-explicit-any
