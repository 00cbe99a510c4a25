import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../support/cli.ts';

function importsOf(folder: string): Array<{ file: string; from: string }> {
  const dir = join(ROOT, 'lib', folder);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .flatMap((file) => [...readFileSync(join(dir, file), 'utf8').matchAll(/^import .* from '([^']+)';$/gm)].map((m) => ({ file: `lib/${folder}/${file}`, from: m[1]! })));
}

/** The hook runner is a floor the suites (drills) and the runner (interrupts) both stand on. */
describe('lib/hooks', () => {
  test('stands on the profile and Node alone: nothing of the suites, the runner, the CLI', () => {
    const above = importsOf('hooks').filter(({ from }) => from.startsWith('.') && !/^\.\.\/(profile\/|package-root\.ts$)|^\.\//.test(from));
    expect(above).toEqual([]);
  });

  test('is where the suites and the runner take hook commands from', () => {
    const users = [...importsOf('suite'), ...importsOf('runner')].filter(({ from }) => /hook-command/.test(from));
    expect(users.length).toBeGreaterThan(0);
    expect(users.filter(({ from }) => from !== '../hooks/hook-command.ts')).toEqual([]);
  });
});
