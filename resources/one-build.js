'use strict';
// Every function built in ONE esbuild run (`npm start`, `serverless package`, `deploy`), and
// under `serverless offline` reloaded after an edit.
//
// Why: serverless-esbuild builds each handler in an esbuild run of its own, all at once. Every
// run parses the same AWS SDK, middy, jose and zod again: measured on the shared 2-core machine
// (load 11 to 16, 56 entry points, same options), 56 runs took 285 s and one run with all 56
// entry points 44 s, which is what kept `npm start` from being ready within its 30 seconds and
// made packaging the prod stage take over four minutes. Without code splitting, esbuild writes
// each entry point's bundle whole, byte for byte the bundle of a run of its own (checked on
// all 56: identical files), so each function's zip is what it was, and the bundle budget
// (tests/deploy/bundle-size.test.ts, which builds each function alone) still measures it.
//
// Only serverless-esbuild's `bundle` step is replaced: the same options (custom.esbuild, its
// plugins, its externals), the same output folder and file names, the same record of what was
// built (`buildResults`), so the steps after it (externals, zips, serverless-offline's
// `location`) run unchanged.
//
// Reload: serverless-offline runs the functions in its own process (`useInProcess`,
// serverless.yml), where Node keeps a loaded bundle in its module cache. When
// serverless-esbuild's watcher has rebuilt them after an edit, the old bundles are dropped
// from that cache, so the next call loads the new code.
const { relative, resolve, sep } = require('node:path');

// serverless-esbuild's own settings, which esbuild itself does not take (its bundle.js).
const PLUGIN_ONLY = [
  'concurrency', 'zipConcurrency', 'exclude', 'nativeZip', 'packager', 'packagePath', 'watch',
  'keepOutputDirectory', 'packagerOptions', 'installExtraArgs', 'outputFileExtension',
  'outputBuildFolder', 'outputWorkFolder', 'nodeExternals', 'skipBuild', 'skipRebuild',
  'skipBuildExcludeFns', 'stripEntryResolveExtensions', 'disposeContext',
];

const asArray = (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]).filter((s) => typeof s === 'string');

async function bundleOnce() {
  const esbuild = require('esbuild');
  this.prepare();
  const options = Object.fromEntries(Object.entries(this.buildOptions).filter(([k]) => !PLUGIN_ONLY.includes(k)));
  const extension = this.buildOptions.outputFileExtension || '.js';
  const entries = [...new Set(this.functionEntries.map(({ entry }) => entry))];
  await esbuild.build({
    ...options,
    external: [...asArray(this.buildOptions.external), ...asArray(this.buildOptions.exclude)],
    plugins: this.plugins,
    entryPoints: entries,
    // functions/users/me.ts -> <build folder>/functions/users/me.js, as serverless-esbuild names it.
    outbase: '.',
    outdir: this.buildDirPath,
    ...(extension !== '.js' ? { outExtension: { '.js': extension } } : {}),
  });
  this.buildCache = {};
  this.buildResults = this.functionEntries.map(({ entry, func, functionAlias }) => ({
    bundlePath: entry.slice(0, entry.lastIndexOf('.')) + extension,
    func,
    functionAlias,
  }));
}

class OneBuild {
  constructor(serverless) {
    this.hooks = {};
    const esbuildPlugin = serverless.pluginManager.plugins.find((p) => p.constructor.name === 'EsbuildServerlessPlugin');
    if (!esbuildPlugin) throw new Error('one-build: serverless-esbuild must be listed before it in serverless.yml plugins');
    esbuildPlugin.bundle = bundleOnce.bind(esbuildPlugin);
    if (serverless.processedInput?.commands?.[0] !== 'offline') return;
    this.hooks['offline:functionsUpdated:cleanup'] = () => {
      const buildDir = resolve(esbuildPlugin.buildDirPath) + sep;
      for (const file of Object.keys(require.cache)) {
        if (file.startsWith(buildDir) && !relative(buildDir, file).startsWith('..')) delete require.cache[file];
      }
    };
  }
}

module.exports = OneBuild;
