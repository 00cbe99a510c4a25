import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadTargetsFile } from '../lib/matrix/targets-file.ts';
import { loadProfileFile } from '../lib/profile/load-profile.ts';
import { loadExpectations } from '../lib/report/expectations.ts';

/**
 * A YAML file the user wrote (a targets file, a profile, expectations) that the parser refuses:
 * one line with the file, where, and the parser's words, the position said once.
 */

const dir = mkdtempSync(join(tmpdir(), 'asi-yaml-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function message(load: () => unknown): string {
  try {
    load();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('loaded');
}

const LOADERS: Array<[string, (file: string) => unknown]> = [
  ['targets file', loadTargetsFile],
  ['profile', loadProfileFile],
  ['expectations', loadExpectations],
];

describe.each(LOADERS)('a %s that is not YAML', (_kind, load) => {
  test.each([
    ['an item without its dash', 'a:\n  - x: 1\n   bad: [1\n', 'at line 3, column 1: Sequence item without - indicator'],
    ['a key twice', 'a: 1\na: 2\n', 'at line 2, column 1: Map keys must be unique'],
    ['a tab as indentation', 'a:\n\tb: 1\n', 'at line 2, column 1: Tabs are not allowed as indentation'],
  ])('%s: one line, the position once, no dangling colon', (_what, text, said) => {
    const path = file('bad.yaml', text);
    const m = message(() => load(path));
    expect(m).toBe(`${path}: is not valid YAML ${said}`);
  });
});

describe.each(LOADERS)('a %s whose aliases expand too far (a YAML bomb)', (_kind, load) => {
  test('is one line that says so, not a missing anchor', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefg'.split('').map((n, i) => `${n}: &${n} [${Array(10).fill(`*${'abcdefg'[i]}`).join(', ')}]`)];
    const path = file('bomb.yaml', `${levels.join('\n')}\n`);
    expect(message(() => load(path))).toBe(`${path}: is not valid YAML: its aliases (*name) expand too far, as a YAML bomb does`);
  });
});
