// The files of the API reference page (/docs): Swagger UI's bundle and stylesheet from the
// swagger-ui-dist package, and our own start-up script. Served by this function only, never
// from a CDN. Read from node_modules here; when a bundle is built, resources/esbuild-plugins.js
// replaces this module by one that embeds each file gzipped (so the function carries
// ~0.5 MB, and no other function carries any of it).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import files from './vendor-files.json';

export interface Asset { type: string; gzipped: Buffer }

/** File name in swagger-ui-dist -> content type. */
export const VENDOR_FILES: Record<string, string> = files;

let cache: Record<string, Asset> | undefined;

export function vendorAssets(): Record<string, Asset> {
  if (!cache) {
    const dir = join(require.resolve('swagger-ui-dist/package.json'), '..');
    cache = Object.fromEntries(Object.entries(VENDOR_FILES).map(([name, type]) =>
      [name, { type, gzipped: gzipSync(readFileSync(join(dir, name))) }]));
  }
  return cache;
}
