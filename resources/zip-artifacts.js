'use strict';
// What the packaging plugins share (resources/sharp-package.js, resources/node-flags-package.js):
// each adds files to the zips serverless-esbuild has made, once it has made them, with
// serverless's own zip library (osls depends on jszip): no dependency of ours for it.
const { readFileSync, writeFileSync } = require('node:fs');
const { dirname, isAbsolute, join } = require('node:path');

/** Adds `files` ({ name, data, mode }) to the zip at `artifact`; an entry of the same name is replaced. */
async function addToZip(artifact, files) {
  const serverlessDir = dirname(require.resolve('serverless/package.json', { paths: [__dirname] }));
  const JSZip = require(require.resolve('jszip', { paths: [serverlessDir] }));
  const zip = await JSZip.loadAsync(readFileSync(artifact));
  for (const f of files) zip.file(f.name, f.data, { unixPermissions: f.mode, date: new Date('2020-01-01T00:00:00Z') });
  writeFileSync(artifact, await zip.generateAsync({ type: 'nodebuffer', platform: 'UNIX', compression: 'DEFLATE', compressionOptions: { level: 9 } }));
}

/**
 * A serverless plugin that runs `apply({ serverless, serviceDir, path })` once the functions are
 * packaged (all of them, or one by `deploy function`); `path` makes an artifact's path absolute.
 */
function afterPackaging(apply) {
  return class {
    constructor(serverless) {
      this.serverless = serverless;
      const run = () => {
        const serviceDir = serverless.serviceDir ?? serverless.config.servicePath;
        return apply({ serverless, serviceDir, path: (artifact) => (isAbsolute(artifact) ? artifact : join(serviceDir, artifact)) });
      };
      this.hooks = { 'after:package:createDeploymentArtifacts': run, 'after:deploy:function:packageFunction': run };
    }
  };
}

module.exports = { addToZip, afterPackaging };
