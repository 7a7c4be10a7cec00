import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const db = (globalThis as Record<string, unknown>).__DYNAMO__ as { stop(): Promise<void> } | undefined;
  const s3 = (globalThis as Record<string, unknown>).__S3__ as { stop(): Promise<void>; eventsDir: string } | undefined;
  const mail = (globalThis as Record<string, unknown>).__SES__ as { stop(): Promise<void> } | undefined;
  await Promise.all([db?.stop(), s3?.stop(), mail?.stop()]);
  if (s3) rmSync(s3.eventsDir, { recursive: true, force: true });
}
