'use strict';
// The runtime's wrapper (resources/node-flags/node-flags; serverless.yml sets
// AWS_LAMBDA_EXEC_WRAPPER to /var/task/resources/node-flags/node-flags) in every function's zip,
// executable whatever the packaging machine's checkout says: Lambda refuses a wrapper without
// its x bit, and then no invocation of the function can start. A Windows checkout or
// `core.fileMode=false` loses the bit, and `package.patterns` would zip the file with the mode it
// finds (docs/OPERATIONS.md, "Node flags").
//
// Not a `layers:` entry: that makes `serverless package` ask CloudFormation for the last layer's
// hash, so packaging would need AWS credentials (tests/deploy/package.test.ts packages offline).
const { readFileSync, writeFileSync } = require('node:fs');
const { dirname, isAbsolute, join } = require('node:path');

const WRAPPER = 'resources/node-flags/node-flags';
/** A regular file, rwxr-xr-x. */
const MODE = 0o100755;

/** Writes the wrapper into the zip at `artifact`, replacing any copy of it. */
async function addWrapper(serverlessDir, artifact, script) {
  // serverless's own zip library (osls depends on jszip), as resources/sharp-package.js uses it.
  const JSZip = require(require.resolve('jszip', { paths: [serverlessDir] }));
  const zip = await JSZip.loadAsync(readFileSync(artifact));
  zip.file(WRAPPER, script, { unixPermissions: MODE, date: new Date('2020-01-01T00:00:00Z') });
  const out = await zip.generateAsync({ type: 'nodebuffer', platform: 'UNIX', compression: 'DEFLATE', compressionOptions: { level: 9 } });
  writeFileSync(artifact, out);
}

class NodeFlagsPackage {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = {
      'after:package:createDeploymentArtifacts': () => this.apply(),
      'after:deploy:function:packageFunction': () => this.apply(),
    };
  }

  async apply() {
    const sls = this.serverless;
    const serviceDir = sls.serviceDir ?? sls.config.servicePath;
    const serverlessDir = dirname(require.resolve('serverless/package.json', { paths: [__dirname] }));
    // Read from the service's folder, wherever serverless was started: a missing script fails the packaging.
    const script = readFileSync(join(serviceDir, WRAPPER));
    const artifacts = new Set(sls.service.getAllFunctions().map((name) => sls.service.getFunction(name).package?.artifact ?? sls.service.package?.artifact).filter(Boolean));
    for (const artifact of artifacts) await addWrapper(serverlessDir, isAbsolute(artifact) ? artifact : join(serviceDir, artifact), script);
  }
}

module.exports = NodeFlagsPackage;
module.exports.WRAPPER = WRAPPER;
