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
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { addToZip, afterPackaging } = require('./zip-artifacts');

const WRAPPER = 'resources/node-flags/node-flags';
/** A regular file, rwxr-xr-x. */
const MODE = 0o100755;

module.exports = afterPackaging(async ({ serverless: sls, serviceDir, path }) => {
  // Read from the service's folder, wherever serverless was started: a missing script fails the packaging.
  const data = readFileSync(join(serviceDir, WRAPPER));
  // Each function's own zip; packaged together (individually: false), the one zip of all.
  const artifacts = new Set(sls.service.getAllFunctions().map((name) => sls.service.getFunction(name).package?.artifact ?? sls.service.package?.artifact).filter(Boolean));
  for (const artifact of artifacts) await addToZip(path(artifact), [{ name: WRAPPER, data, mode: MODE }]);
});
module.exports.WRAPPER = WRAPPER;
