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
const { execFileSync } = require('node:child_process');
const { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const { addToZip, afterPackaging } = require('./zip-artifacts');

const PLATFORM = 'linux-arm64';
const FUNCTIONS = ['mediaProcess'];

/** `npm pack` of one package into `cache`, tried 3 times, 2 minutes each (the registry is the network; npm without its config, its CA bundle say, waits minutes before failing); npm's own error when all fail. */
function fetchTarball(spec, cache) {
  for (let attempt = 1; ; attempt++) {
    try {
      execFileSync('npm', ['pack', spec, '--prefer-offline', '--pack-destination', cache], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 });
      return;
    } catch (err) {
      if (attempt >= 3) throw new Error(`sharp: npm pack ${spec} failed: ${String(err.stderr ?? err.message).trim().split('\n').slice(-5).join(' ')}`);
      execFileSync('sleep', [String(2 * attempt)]);
    }
  }
}

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
  const cache = join(serviceDir, '.layers', 'tarballs');
  mkdirSync(cache, { recursive: true });
  for (const { name, version } of wanted) {
    const file = `${name.replace('@', '').replace('/', '-')}-${version}.tgz`;
    if (!existsSync(join(cache, file))) {
      log(`sharp: fetching ${name}@${version}`);
      fetchTarball(`${name}@${version}`, cache);
    }
    const dest = join(target, ...name.split('/'));
    mkdirSync(dest, { recursive: true });
    execFileSync('tar', ['-xzf', join(cache, file), '-C', dest, '--strip-components=1']);
  }
  writeFileSync(stamp, signature);
  return target;
}

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/** node_modules/<sharp and its binaries>, as files for the zip (resources/zip-artifacts.js). */
const zipEntries = (modulesDir) => [...files(modulesDir)].map((file) => ({
  name: `node_modules/${relative(modulesDir, file).split(/[\\/]/).join('/')}`, data: readFileSync(file), mode: statSync(file).mode,
}));

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
