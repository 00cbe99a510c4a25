import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { RUN_HELP } from '../../lib/cli/help.ts';
import { PREFLIGHT_TIMEOUT_MS } from '../../lib/runner/preflight.ts';
import { ROOT } from '../support/cli.ts';

test('README and run --help give the preflight deadline the code has', () => {
  const seconds = PREFLIGHT_TIMEOUT_MS / 1000;
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  const stated = [...readme.matchAll(/preflight[^.]*?at most (\d+) s\b/g), ...RUN_HELP.replace(/\s+/g, ' ').matchAll(/preflight[^.]*?at most (\d+) s\b/g)].map((m) => Number(m[1]));
  expect(stated).toEqual([seconds, seconds, seconds]);
});
