import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from './support/cli.ts';

const LIB = join(ROOT, 'lib');

/**
 * The floors of lib/: a folder never imports one that stands on it. Suites and the runner use the
 * model, the client, the checks and the reports; never the other way round.
 */
const NEVER: Record<string, readonly string[]> = {
  model: ['suite', 'runner', 'report', 'http', 'checks', 'cli'],
  http: ['suite', 'runner', 'report', 'checks', 'cli'],
  checks: ['suite', 'runner', 'report', 'cli'],
  catalogue: ['suite', 'runner', 'report', 'cli'],
  report: ['suite', 'runner', 'cli'],
  // Fault hooks: drills (suite) and interrupts (runner) both run them, so they stand below both.
  hooks: ['suite', 'runner', 'report', 'http', 'checks', 'cli'],
  suite: ['runner', 'cli'],
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** The folder of lib/ a module sits in (`model`, `http`, ...), or the file name for lib's own top-level modules. */
function floorOf(file: string): string {
  return relative(LIB, file).split('/')[0]!;
}

/** Every relative import of a module, type-only ones included: a type ties the floors as much as a value. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s+'([^']+)'/g), ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((m) => m[1]!);
  return specifiers.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s));
}

test('no floor of lib/ imports a floor that stands on it', () => {
  const climbing: string[] = [];
  for (const file of sources(LIB)) {
    const from = floorOf(file);
    for (const target of importsOf(file)) {
      const to = floorOf(target);
      if (NEVER[from]?.includes(to)) climbing.push(`${relative(ROOT, file)} imports ${relative(ROOT, target)}`);
    }
  }
  expect(climbing).toEqual([]);
});
