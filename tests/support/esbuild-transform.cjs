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
      // import.meta.url has no CommonJS equivalent; give the scripts' .mjs modules theirs.
      define: { 'import.meta.url': '__importMetaUrl' },
      banner: source.includes('import.meta.url') ? "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" : '',
    });
    return { code, map };
  },
  getCacheKey(source, filename) {
    return require('node:crypto').createHash('sha1').update(source).update(filename).update('v2').digest('hex');
  },
};
