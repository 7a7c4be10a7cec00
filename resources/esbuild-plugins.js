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

module.exports = [gzipOpenapi];
