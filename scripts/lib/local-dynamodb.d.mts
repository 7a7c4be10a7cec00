import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export interface LocalDynamo { endpoint: string; port: number; pid?: number; stop(): Promise<void> }
export function freePort(): Promise<number>;
export function localClient(endpoint: string): DynamoDBClient;
export function startDynamoLocal(opts?: { port?: number; path?: string; timeoutMs?: number }): Promise<LocalDynamo>;
export function ensureTable(endpoint: string, tableName: string, opts?: { stream?: boolean }): Promise<boolean>;
export function tableDefinition(): Record<string, any>;
