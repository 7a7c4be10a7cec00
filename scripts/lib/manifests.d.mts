export const ROOT: string;
export interface ManifestRoute { name: string; file: string; exportName: string; method: string; path: string; key: string }
export function referencedManifests(root?: string): string[];
export function manifestsOnDisk(root?: string): string[];
export function routes(root?: string): ManifestRoute[];
export function functionNames(root?: string): string[];
export function functionDefinition(name: string, root?: string): Record<string, unknown> | undefined;
export function asyncRetries(name: string, root?: string): number;
export function functionDefinitions(root?: string): Record<string, { handler: string; events?: unknown[] }>;
