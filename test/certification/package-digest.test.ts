import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { catalogueDigest, canonicalJson } from '../../lib/certification/harness-identity.ts';
import { packageDigest, packageFiles } from '../../lib/certification/package-digest.ts';

const work = mkdtempSync(join(tmpdir(), 'asi-pkg-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A small package: files as npm packs them, and some it never packs. */
function fakePackage(): string {
  const root = mkdtempSync(join(work, 'p-'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', files: ['bin', 'dist', '!dist/**/*.map', 'NOTES.md'] }));
  writeFileSync(join(root, 'README.md'), 'readme');
  writeFileSync(join(root, 'NOTES.md'), 'notes');
  writeFileSync(join(root, 'package-lock.json'), '{}');
  mkdirSync(join(root, 'bin'));
  writeFileSync(join(root, 'bin', 'p.js'), 'run()');
  mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
  writeFileSync(join(root, 'dist', 'cli', 'main.js'), 'main()');
  writeFileSync(join(root, 'dist', 'cli', 'main.js.map'), '{}');
  writeFileSync(join(root, 'dist', '.DS_Store'), '');
  mkdirSync(join(root, 'test'));
  writeFileSync(join(root, 'test', 'a.test.ts'), 'test()');
  return root;
}

describe('the package digest', () => {
  test('covers what npm packs: the files of package.json less its ! patterns, package.json and README', () => {
    expect(packageFiles(fakePackage())).toEqual(['NOTES.md', 'README.md', 'bin/p.js', 'dist/cli/main.js', 'package.json']);
  });

  test('changes with any packed file, not with a file npm leaves out', () => {
    const before = packageDigest(fakePackage());
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    const unpacked = fakePackage();
    writeFileSync(join(unpacked, 'dist', 'cli', 'main.js.map'), '{"changed":1}');
    writeFileSync(join(unpacked, 'test', 'a.test.ts'), 'changed');
    expect(packageDigest(unpacked)).toBe(before);
    const edited = fakePackage();
    writeFileSync(join(edited, 'dist', 'cli', 'main.js'), 'main() // edited in place');
    expect(packageDigest(edited)).not.toBe(before);
  });
});

describe('the catalogue digest', () => {
  test('is canonical JSON: key order does not change it', () => {
    expect(canonicalJson({ b: [1, { d: 'x', c: null }], a: 'é' })).toBe('{"a":"é","b":[1,{"c":null,"d":"x"}]}');
    expect(catalogueDigest()).toMatch(/^[0-9a-f]{64}$/);
  });
});
