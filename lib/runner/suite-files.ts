import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UsageError } from '../errors.ts';
import { PACKAGE_ROOT } from '../package-root.ts';

export const SUITES_DIR = join(PACKAGE_ROOT, 'suites');

/** A suite's name is its file name without `.test.ts`, e.g. `ledger-window`. */
export function suiteName(file: string): string {
  return basename(file).replace(/\.test\.ts$/, '');
}

export function allSuiteFiles(): string[] {
  return readdirSync(SUITES_DIR)
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => join(SUITES_DIR, f));
}

/**
 * Files for `--suite NAME ...`: a name selects the suite of that name, or every suite of an area
 * (`ledger` selects `ledger-window`, `ledger-pagination`, ...). An unknown name is a usage error
 * that lists the names there are.
 */
export function selectSuiteFiles(names: readonly string[]): string[] {
  const files = allSuiteFiles();
  if (names.length === 0) return files;
  const chosen = new Set<string>();
  for (const name of names) {
    const hits = files.filter((f) => suiteName(f) === name || suiteName(f).startsWith(`${name}-`));
    if (hits.length === 0) {
      throw new UsageError(`--suite ${name}: no such suite; expected one of ${files.map(suiteName).join(', ')} (or an area prefix)`);
    }
    for (const h of hits) chosen.add(h);
  }
  return files.filter((f) => chosen.has(f));
}
