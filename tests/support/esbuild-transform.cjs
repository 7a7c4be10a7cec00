// Jest transform: TypeScript and ESM (ours and the ESM-only packages) to CommonJS.
const { transformSync } = require('esbuild');

module.exports = {
  process(source, filename) {
    const loader = /\.[cm]?ts$/.test(filename) ? 'ts' : /\.json$/.test(filename) ? 'json' : 'js';
    const { code, map } = transformSync(source, {
      loader,
      format: 'cjs',
      target: 'node22',
      sourcemap: 'external',
      sourcefile: filename,
      supported: { 'dynamic-import': false },
    });
    return { code, map };
  },
  getCacheKey(source, filename) {
    return require('node:crypto').createHash('sha1').update(source).update(filename).update('v1').digest('hex');
  },
};
