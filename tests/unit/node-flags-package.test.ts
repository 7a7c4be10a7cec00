// resources/node-flags-package.js: the runtime's wrapper goes into every function's zip with mode
// 755 whatever mode the packaging machine's copy has (a checkout without exec bits would
// otherwise ship a wrapper Lambda refuses to run: every invocation failing).
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/* eslint-disable @typescript-eslint/no-require-imports */
const NodeFlagsPackage = require('../../resources/node-flags-package.js');
const JSZip = require(require.resolve('jszip', { paths: [join(__dirname, '../../node_modules/serverless')] }));
/* eslint-enable @typescript-eslint/no-require-imports */

const ROOT = join(__dirname, '../..');
const WRAPPER = 'resources/node-flags/node-flags';

async function zipOf(files: Record<string, string>): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, text] of Object.entries(files)) zip.file(name, text, { unixPermissions: 0o100644 });
  return zip.generateAsync({ type: 'nodebuffer', platform: 'UNIX' });
}

function fakeServerless(serviceDir: string, artifacts: Record<string, string | undefined>, serviceArtifact?: string) {
  return {
    serviceDir,
    config: {},
    service: {
      getAllFunctions: () => Object.keys(artifacts),
      getFunction: (name: string) => ({ package: artifacts[name] ? { artifact: artifacts[name] } : {} }),
      package: serviceArtifact ? { artifact: serviceArtifact } : {},
    },
  };
}

describe('resources/node-flags-package.js', () => {
  it('puts the wrapper, mode 755 and as written, into every function\'s zip, keeping what each held', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'node-flags-package-'));
    mkdirSync(join(dir, 'resources/node-flags'), { recursive: true });
    // The packaging machine's copy lost its exec bit.
    copyFileSync(join(ROOT, WRAPPER), join(dir, WRAPPER));
    chmodSync(join(dir, WRAPPER), 0o644);
    writeFileSync(join(dir, 'a.zip'), await zipOf({ 'functions/a.js': 'a' }));
    writeFileSync(join(dir, 'b.zip'), await zipOf({ 'functions/b.js': 'b', [WRAPPER]: 'stale' }));
    await new NodeFlagsPackage(fakeServerless(dir, { a: 'a.zip', b: join(dir, 'b.zip') })).hooks['after:package:createDeploymentArtifacts']();
    for (const [zip, own] of [['a.zip', 'functions/a.js'], ['b.zip', 'functions/b.js']] as const) {
      const files = (await JSZip.loadAsync(readFileSync(join(dir, zip)))).files;
      expect(Object.keys(files).filter((n) => !files[n].dir).sort()).toEqual([own, WRAPPER].sort());
      expect(files[WRAPPER].unixPermissions & 0o777).toBe(0o755);
      expect(await files[WRAPPER].async('string')).toBe(readFileSync(join(ROOT, WRAPPER), 'utf8'));
    }
  });

  it('packaged together (one zip for all functions), puts it into that zip once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'node-flags-package-'));
    mkdirSync(join(dir, 'resources/node-flags'), { recursive: true });
    copyFileSync(join(ROOT, WRAPPER), join(dir, WRAPPER));
    writeFileSync(join(dir, 'all.zip'), await zipOf({ 'functions/a.js': 'a' }));
    await new NodeFlagsPackage(fakeServerless(dir, { a: undefined, b: undefined }, 'all.zip')).hooks['after:package:createDeploymentArtifacts']();
    const files = (await JSZip.loadAsync(readFileSync(join(dir, 'all.zip')))).files;
    expect(files[WRAPPER].unixPermissions & 0o777).toBe(0o755);
  });

  it('fails the packaging when the script is missing, rather than ship functions that cannot start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'node-flags-package-'));
    writeFileSync(join(dir, 'a.zip'), await zipOf({ 'functions/a.js': 'a' }));
    await expect(new NodeFlagsPackage(fakeServerless(dir, { a: 'a.zip' })).hooks['after:package:createDeploymentArtifacts']()).rejects.toThrow(/ENOENT/);
  });
});
