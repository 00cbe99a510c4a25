import { describe, expect, test } from 'vitest';
import { commandPrefixFor, type Place } from '../lib/invocation.ts';

/** A place with the given links: `resolve` follows them as realpath would, every other path is itself. */
function place(over: Partial<Place> & { links?: Record<string, string> }): Place {
  const { links = {}, ...rest } = over;
  return {
    packageRoot: '/home/ann/asi-conformance/',
    version: '0.2.0',
    cwd: '/home/ann/asi-conformance',
    path: '/usr/local/bin:/usr/bin:/bin',
    globalPrefix: '/usr',
    platform: 'linux',
    resolve: (file) => links[file] ?? (file.endsWith('/bin/asi-conformance.js') ? file : undefined),
    ...rest,
  };
}

describe('commandPrefixFor', () => {
  test('a clone, the working folder inside it: npx runs the clone\'s own bin', () => {
    expect(commandPrefixFor(place({}))).toBe('npx asi-conformance');
    expect(commandPrefixFor(place({ cwd: '/home/ann/asi-conformance/reports' }))).toBe('npx asi-conformance');
  });

  test('a clone, the working folder elsewhere: node and the path to its bin', () => {
    expect(commandPrefixFor(place({ cwd: '/srv/ci' }))).toBe('node /home/ann/asi-conformance/bin/asi-conformance.js');
    expect(commandPrefixFor(place({ packageRoot: '/home/ann/my tools/asi-conformance', cwd: '/srv' }))).toBe("node '/home/ann/my tools/asi-conformance/bin/asi-conformance.js'");
  });

  test('a project\'s dependency, the working folder in that project: npx', () => {
    const local = { packageRoot: '/home/ann/api/node_modules/asi-conformance' };
    expect(commandPrefixFor(place({ ...local, cwd: '/home/ann/api' }))).toBe('npx asi-conformance');
    expect(commandPrefixFor(place({ ...local, cwd: '/home/ann/api/test' }))).toBe('npx asi-conformance');
    expect(commandPrefixFor(place({ ...local, cwd: '/home/ann' }))).toBe('node api/node_modules/asi-conformance/bin/asi-conformance.js');
  });

  test('a global install under npm\'s prefix: the bare name', () => {
    expect(commandPrefixFor(place({ packageRoot: '/usr/lib/node_modules/asi-conformance', cwd: '/home/ann/api' }))).toBe('asi-conformance');
    expect(commandPrefixFor(place({ packageRoot: '/home/ann/.nvm/versions/node/v20.20.2/lib/node_modules/asi-conformance', globalPrefix: '/home/ann/.nvm/versions/node/v20.20.2', cwd: '/tmp' }))).toBe('asi-conformance');
  });

  test('a bin on the user\'s PATH that leads to this package (another prefix, npm link): the bare name', () => {
    const root = '/home/ann/.npm-global/lib/node_modules/asi-conformance';
    const links = { '/home/ann/.npm-global/bin/asi-conformance': `${root}/bin/asi-conformance.js` };
    expect(commandPrefixFor(place({ packageRoot: root, path: '/home/ann/.npm-global/bin:/usr/bin', links, cwd: '/srv' }))).toBe('asi-conformance');
    const linked = { '/usr/bin/asi-conformance': '/home/ann/asi-conformance/bin/asi-conformance.js' };
    expect(commandPrefixFor(place({ path: '/usr/bin', links: linked, cwd: '/srv' }))).toBe('asi-conformance');
  });

  test('node_modules/.bin on PATH (npm adds it while it runs a script or npx) does not count', () => {
    const links = { '/home/ann/api/node_modules/.bin/asi-conformance': '/home/ann/api/node_modules/asi-conformance/bin/asi-conformance.js' };
    const p = place({ packageRoot: '/home/ann/api/node_modules/asi-conformance', path: '/home/ann/api/node_modules/.bin:/usr/bin', links, cwd: '/home/ann/api' });
    expect(commandPrefixFor(p)).toBe('npx asi-conformance');
  });

  test('run by npx from its cache: npx of the same version', () => {
    expect(commandPrefixFor(place({ packageRoot: '/home/ann/.npm/_npx/3f2a/node_modules/asi-conformance', cwd: '/srv' }))).toBe('npx asi-conformance@0.2.0');
  });
});
