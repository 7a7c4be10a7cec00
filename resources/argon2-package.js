'use strict';
// @node-rs/argon2 (password hashing, lib/users/password.ts) for the functions that hash, and for
// them alone, as resources/sharp-package.js does for sharp: every bundle leaves
// `@node-rs/argon2` external (serverless.yml custom.esbuild.exclude); after serverless-esbuild
// has zipped each function, this adds the package's JavaScript and its linux-arm64 (glibc)
// binary (Lambda here is arm64) under node_modules/ of each zip whose bundle requires it. Which
// those are is read from the bundles themselves, so a function that starts hashing gets it.
//
// The files: @node-rs/argon2's JavaScript copied from node_modules (the version package-lock.json
// pins), and @node-rs/argon2-linux-arm64-gnu at the version it names, fetched with `npm pack`
// (npm's cache once fetched) into .layers/argon2/node_modules, reused while the versions match.
const { cpSync, existsSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { addToZip, afterPackaging } = require('./zip-artifacts');
const { unpackPackage, zipEntries } = require('./native-package');

const PACKAGE = '@node-rs/argon2';
const BINARY = `${PACKAGE}-linux-arm64-gnu`;
/** How a bundle loads it (esbuild's output for an external import). */
const REQUIRED = /require\("@node-rs\/argon2"\)/;

function buildArgon2Modules(serviceDir, log = () => {}) {
  const source = join(serviceDir, 'node_modules', ...PACKAGE.split('/'));
  const pkg = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
  const version = pkg.optionalDependencies[BINARY];
  const root = join(serviceDir, '.layers', 'argon2');
  const stamp = join(root, 'built-for.json');
  const signature = JSON.stringify({ argon2: pkg.version, binary: version });
  const target = join(root, 'node_modules');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === signature) return target;

  rmSync(root, { recursive: true, force: true });
  // The package's JavaScript, not the binary of this machine (a package of its own, not copied).
  cpSync(source, join(target, ...PACKAGE.split('/')), { recursive: true, filter: (src) => !/\.node$|README\.md$/.test(src) });
  unpackPackage({ name: BINARY, version }, serviceDir, target, log, 'argon2');
  writeFileSync(stamp, signature);
  return target;
}

/** Whether the zip's own code (not node_modules) requires the package. */
async function requiresArgon2(artifact) {
  const serverlessDir = dirname(require.resolve('serverless/package.json', { paths: [__dirname] }));
  const JSZip = require(require.resolve('jszip', { paths: [serverlessDir] }));
  const zip = await JSZip.loadAsync(readFileSync(artifact));
  const own = Object.values(zip.files).filter((f) => !f.dir && /\.js$/.test(f.name) && !f.name.startsWith('node_modules/'));
  for (const f of own) if (REQUIRED.test(await f.async('string'))) return true;
  return false;
}

const Argon2Package = afterPackaging(async ({ serverless: sls, serviceDir, path }) => {
  let modules;
  for (const name of sls.service.getAllFunctions()) {
    const artifact = sls.service.getFunction(name).package?.artifact;
    // Packaged together (the local stage): serverless-offline loads it from node_modules.
    if (!artifact) continue;
    if (!(await requiresArgon2(path(artifact)))) continue;
    modules ??= buildArgon2Modules(serviceDir, (m) => sls.cli.log(m));
    await addToZip(path(artifact), zipEntries(modules));
  }
});

module.exports = Argon2Package;
module.exports.buildArgon2Modules = buildArgon2Modules;
module.exports.REQUIRED = REQUIRED;
