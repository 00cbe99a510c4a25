import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { RUN_HELP } from '../../lib/cli/help.ts';
import { PREFLIGHT_TIMEOUT_MS } from '../../lib/runner/preflight.ts';
import { ROOT } from '../support/cli.ts';

test('the user guide and run --help give the preflight deadline the code has', () => {
  const seconds = PREFLIGHT_TIMEOUT_MS / 1000;
  const guide = ['certifying.md', 'troubleshooting.md'].map((page) => readFileSync(join(ROOT, 'docs', 'guide', page), 'utf8')).join('\n');
  const guideText = guide.replace(/\s+/g, ' ');
  const stated = [...guideText.matchAll(/preflight[^.]*?at most (\d+) s\b/g), ...RUN_HELP.replace(/\s+/g, ' ').matchAll(/preflight[^.]*?at most (\d+) s\b/g)].map((m) => Number(m[1]));
  expect(stated).toEqual([seconds, seconds, seconds]);
});
