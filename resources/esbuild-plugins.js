'use strict';
// esbuild plugins of the function bundles (serverless.yml custom.esbuild.plugins).
// docs/openapi.json is embedded gzipped and unpacked once at cold start: the document grows
// with every route, the function that serves it should not (bundle budget).
const { gzipSync } = require('node:zlib');
const { readFileSync } = require('node:fs');

const gzipOpenapi = {
  name: 'gzip-openapi-json',
  setup(build) {
    build.onLoad({ filter: /[\\/]docs[\\/]openapi\.json$/ }, (args) => {
      const minified = JSON.stringify(JSON.parse(readFileSync(args.path, 'utf8')));
      const packed = gzipSync(Buffer.from(minified, 'utf8'), { level: 9 }).toString('base64');
      return {
        loader: 'js',
        contents: `import { gunzipSync } from 'node:zlib';\n`
          + `export default JSON.parse(gunzipSync(Buffer.from(${JSON.stringify(packed)}, 'base64')).toString('utf8'));\n`,
      };
    });
  },
};

// The files of the /docs page (functions/docs/assets.ts) embedded gzipped, read when bundled:
// only the docs function imports that module, so no other function carries them.
const embedDocsAssets = {
  name: 'embed-docs-assets',
  setup(build) {
    build.onLoad({ filter: /[\\/]functions[\\/]docs[\\/]assets\.ts$/ }, (args) => {
      const { join, dirname } = require('node:path');
      const dir = dirname(require.resolve('swagger-ui-dist/package.json', { paths: [args.path] }));
      const files = JSON.parse(readFileSync(join(dirname(args.path), 'vendor-files.json'), 'utf8'));
      const entries = Object.entries(files).map(([name, type]) => {
        const packed = gzipSync(readFileSync(join(dir, name)), { level: 9 }).toString('base64');
        return `${JSON.stringify(name)}: { type: ${JSON.stringify(type)}, gzipped: Buffer.from(${JSON.stringify(packed)}, 'base64') }`;
      });
      return {
        loader: 'js',
        contents: `export const VENDOR_FILES = ${JSON.stringify(files)};\n`
          + `const assets = { ${entries.join(', ')} };\n`
          + 'export function vendorAssets() { return assets; }\n',
      };
    });
  },
};

module.exports = [gzipOpenapi, embedDocsAssets];
