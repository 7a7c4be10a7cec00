'use strict';
// What resources/sharp-package.js and resources/argon2-package.js share: a native package's
// linux-arm64 binary package, fetched once with `npm pack` and unpacked under a node_modules
// folder, and that folder as entries of a function's zip (resources/zip-artifacts.js).
const { execFileSync } = require('node:child_process');
const { existsSync, mkdirSync, readFileSync, readdirSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');

/** `npm pack` of one package into `cache`, tried 3 times, 2 minutes each (the registry is the network; npm without its config, its CA bundle say, waits minutes before failing); npm's own error when all fail. */
function fetchTarball(spec, cache, label) {
  for (let attempt = 1; ; attempt++) {
    try {
      execFileSync('npm', ['pack', spec, '--prefer-offline', '--pack-destination', cache], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 });
      return;
    } catch (err) {
      if (attempt >= 3) throw new Error(`${label}: npm pack ${spec} failed: ${String(err.stderr ?? err.message).trim().split('\n').slice(-5).join(' ')}`);
      execFileSync('sleep', [String(2 * attempt)]);
    }
  }
}

/** Unpacks `name@version` (fetched into serviceDir/.layers/tarballs once) into `target/<name>`. */
function unpackPackage({ name, version }, serviceDir, target, log, label) {
  const cache = join(serviceDir, '.layers', 'tarballs');
  mkdirSync(cache, { recursive: true });
  const file = `${name.replace('@', '').replace('/', '-')}-${version}.tgz`;
  if (!existsSync(join(cache, file))) {
    log(`${label}: fetching ${name}@${version}`);
    fetchTarball(`${name}@${version}`, cache, label);
  }
  const dest = join(target, ...name.split('/'));
  mkdirSync(dest, { recursive: true });
  execFileSync('tar', ['-xzf', join(cache, file), '-C', dest, '--strip-components=1']);
}

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/** Every file of a node_modules folder, as entries `node_modules/...` of a zip. */
const zipEntries = (modulesDir) => [...files(modulesDir)].map((file) => ({
  name: `node_modules/${relative(modulesDir, file).split(/[\\/]/).join('/')}`, data: readFileSync(file), mode: statSync(file).mode,
}));

module.exports = { unpackPackage, zipEntries };
