'use strict';
// sharp for the media processing function, and for it alone: after serverless-esbuild has
// zipped each function, this adds sharp with its linux-arm64 binaries (Lambda here is arm64)
// under node_modules/ of the mediaProcess zip. Every bundle leaves `sharp` external
// (serverless.yml custom.esbuild.exclude), so no other zip carries any of it.
//
// Why not the alternatives: serverless-esbuild installs externals with this machine's npm
// for every function alike (each zip would get sharp, with this machine's x64 binary); a
// serverless `layers:` entry makes `serverless package` ask CloudFormation for the last
// layer's hash, so packaging would need AWS credentials (tests/deploy/package.test.ts
// packages offline). One extra folder in one zip needs neither.
//
// The files: sharp's JavaScript and its dependencies copied from node_modules (the version
// package-lock.json pins), and the two @img packages for linux-arm64 at the versions sharp
// itself names, fetched with `npm pack` (the ordinary npm client; npm's cache once fetched)
// and unpacked into .layers/sharp/node_modules, which is reused while the versions match.
const { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { addToZip, afterPackaging } = require('./zip-artifacts');
const { unpackPackage, zipEntries } = require('./native-package');

const PLATFORM = 'linux-arm64';
const FUNCTIONS = ['mediaProcess'];

function buildSharpModules(serviceDir, log = () => {}) {
  const modules = join(serviceDir, 'node_modules');
  const sharpPkg = JSON.parse(readFileSync(join(modules, 'sharp', 'package.json'), 'utf8'));
  const wanted = [`@img/sharp-${PLATFORM}`, `@img/sharp-libvips-${PLATFORM}`].map((name) => ({ name, version: sharpPkg.optionalDependencies[name] }));
  const root = join(serviceDir, '.layers', 'sharp');
  const stamp = join(root, 'built-for.json');
  const signature = JSON.stringify({ sharp: sharpPkg.version, wanted });
  const target = join(root, 'node_modules');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === signature) return target;

  rmSync(root, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  // sharp's JavaScript (not its C++ sources) and its runtime dependencies.
  cpSync(join(modules, 'sharp'), join(target, 'sharp'), { recursive: true, filter: (src) => !/[\\/]sharp[\\/](src|README\.md)$/.test(src) });
  for (const dep of Object.keys(sharpPkg.dependencies ?? {})) {
    if (!existsSync(join(target, 'sharp', 'node_modules', dep))) cpSync(join(modules, dep), join(target, dep), { recursive: true });
  }
  // The linux-arm64 binaries, whatever this machine is.
  for (const binary of wanted) unpackPackage(binary, serviceDir, target, log, 'sharp');
  writeFileSync(stamp, signature);
  return target;
}

const SharpPackage = afterPackaging(async ({ serverless: sls, serviceDir, path }) => {
  for (const name of FUNCTIONS) {
    if (!sls.service.getAllFunctions().includes(name)) continue;
    const artifact = sls.service.getFunction(name).package?.artifact;
    // Packaged together (individually: false, the local stage): one zip for all functions would give every one sharp.
    if (!artifact) throw new Error(`sharp: function "${name}" has no artifact of its own; package individually`);
    const modules = buildSharpModules(serviceDir, (m) => sls.cli.log(m));
    await addToZip(path(artifact), zipEntries(modules));
  }
});

module.exports = SharpPackage;
module.exports.buildSharpModules = buildSharpModules;
