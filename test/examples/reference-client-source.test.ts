import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../support/cli.ts';

/**
 * The reference client is written in TypeScript (client.mts); client.mjs beside it, which users
 * and the self-tests run on Node 20 as is, must be exactly what tsc emits from it.
 */
test('examples/reference-client/client.mjs is what tsc emits from client.mts', () => {
  const out = mkdtempSync(join(tmpdir(), 'asi-client-emit-'));
  const tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'examples', 'reference-client'), '--outDir', out], { cwd: ROOT, stdio: 'pipe' });
  const emitted = readFileSync(join(out, 'client.mjs'), 'utf8');
  expect(readFileSync(join(ROOT, 'examples', 'reference-client', 'client.mjs'), 'utf8'), 'run `npx tsc -p examples/reference-client` after changing client.mts').toBe(emitted);
}, 120_000);
