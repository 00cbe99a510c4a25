import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { suiteModuleCache } from '../../lib/runner/suite-module-cache.ts';

const scratch = mkdtempSync(join(tmpdir(), 'asi-module-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test('a folder that can be made and written holds the suites’ compiled modules', () => {
  const dir = join(scratch, 'node_modules', '.cache', 'suites');
  expect(suiteModuleCache(dir)).toEqual({ fsModuleCache: true, fsModuleCachePath: dir });
});

test('where the folder cannot be made, a run goes without the cache instead of failing', () => {
  const file = join(scratch, 'a-file');
  writeFileSync(file, '');
  expect(suiteModuleCache(join(file, 'cache'))).toBeUndefined();
});
