import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from '../support/cli.ts';

/**
 * bin/build.mjs (`npm run build`, and so `npm start` and `npm test`) in a project of its own: the
 * script, the profile schema, the repository's tsconfig files and package.json, and a lib/ of two
 * modules, so that the repository's own dist/, which other self-tests run from, is never touched,
 * and each compile takes tsc a second or two rather than the whole of lib/. Real processes: the
 * build as npm runs it, signalled by process group while tsc compiles.
 */

const clone = mkdtempSync(join(tmpdir(), 'asi-build-'));
const dist = join(clone, 'dist');
const stampFile = join(dist, '.build-stamp');
const COMPILING = 'build: compiling lib/';
// A safety net far above a compile of two modules on a loaded machine.
const BUILD_MS = 120_000;

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr as they came. */
  output: string;
}

/**
 * Starts a command in the copy in a process group of its own; `signal` goes to the whole group once
 * the build says it compiles (tsc has been started then, and takes seconds to load).
 */
function inClone(command: string, args: string[], signal?: NodeJS.Signals): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: clone, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let sent = false;
    const onOutput = (d: Buffer): void => {
      output += d.toString();
      if (signal !== undefined && !sent && output.includes(COMPILING)) {
        sent = true;
        setTimeout(() => process.kill(-child.pid!, signal), 200);
      }
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish\n${output}`));
    }, BUILD_MS);
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      resolve({ code, signal: sig, output });
    });
  });
}

/** The build's temporaries beside dist/. */
function temporaries(): string[] {
  return readdirSync(clone).filter((n) => n.startsWith('.dist-'));
}

/** Waits until the build processes of an interrupted group are gone (their temporaries removed). */
async function settled(): Promise<void> {
  for (let i = 0; i < 200 && temporaries().length > 0; i += 1) await new Promise((r) => setTimeout(r, 100));
}

/** Runs the built program: a dist/ that works prints what its sources say. */
function builtProgram(): Promise<Finished> {
  return inClone(process.execPath, ['dist/main.js']);
}

/** A change to a compiled source that changes no behaviour. */
let edits = 0;
function editSource(): void {
  edits += 1;
  appendFileSync(join(clone, 'lib', 'spec-constants.ts'), `// edit ${edits}\n`);
}

beforeAll(() => {
  for (const entry of ['bin/build.mjs', 'bin/compile-lib.mjs', 'config/profile.schema.json', 'tsconfig.json', 'tsconfig.build.json', 'package.json']) cpSync(join(ROOT, entry), join(clone, entry));
  mkdirSync(join(clone, 'lib'));
  writeFileSync(join(clone, 'lib', 'spec-constants.ts'), "export const GREETING = 'built';\n");
  writeFileSync(join(clone, 'lib', 'main.ts'), "import { GREETING } from './spec-constants.ts';\n\nprocess.stdout.write(`${GREETING}\\n`);\n");
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
});

afterAll(() => rmSync(clone, { recursive: true, force: true }));

describe('npm run build', () => {
  test('with sources unchanged since the last build, does not run tsc: dist/ and its stamp stay as they are', async () => {
    const first = await inClone('npm', ['run', '--silent', 'build']);
    expect(first.code, first.output).toBe(0);
    const before = statSync(stampFile);
    const stamp = readFileSync(stampFile, 'utf8');
    const again = await inClone('npm', ['run', '--silent', 'build']);
    expect(again.code, again.output).toBe(0);
    expect(again.output).not.toContain(COMPILING);
    const after = statSync(stampFile);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(readFileSync(stampFile, 'utf8')).toBe(stamp);
  }, BUILD_MS);

  test('a changed source compiles again, into a dist/ with a new stamp', async () => {
    const stamp = readFileSync(stampFile, 'utf8');
    editSource();
    const built = await inClone('npm', ['run', '--silent', 'build']);
    expect(built.code, built.output).toBe(0);
    expect(built.output).toContain(COMPILING);
    expect(readFileSync(stampFile, 'utf8')).not.toBe(stamp);
    expect(readFileSync(join(dist, 'spec-constants.js'), 'utf8')).toBeTruthy();
    expect(temporaries()).toEqual([]);
  }, BUILD_MS);

  test('a type error in a suite fails the build (suites ship as sources, checked with lib/): the old dist/ stays, and nothing of the suite is written', async () => {
    const stamp = readFileSync(stampFile, 'utf8');
    const suites = join(clone, 'suites');
    mkdirSync(suites);
    writeFileSync(join(suites, 'wrong.test.ts'), "import { GREETING } from '../lib/spec-constants.ts';\n\nexport const COUNT: number = GREETING;\n");
    try {
      const failed = await inClone('npm', ['run', '--silent', 'build']);
      expect(failed.output).toContain(COMPILING);
      expect(failed.output).toContain("suites/wrong.test.ts(3,14): error TS2322: Type 'string' is not assignable to type 'number'.");
      expect(failed.code).not.toBe(0);
      expect(readFileSync(stampFile, 'utf8')).toBe(stamp);
      await settled();
      expect(temporaries()).toEqual([]);
      writeFileSync(join(suites, 'wrong.test.ts'), "import { GREETING } from '../lib/spec-constants.ts';\n\nexport const COUNT: string = GREETING;\n");
      const built = await inClone('npm', ['run', '--silent', 'build']);
      expect(built.code, built.output).toBe(0);
      expect(readFileSync(stampFile, 'utf8')).not.toBe(stamp);
      expect(readdirSync(dist).filter((n) => /wrong|suites/.test(n))).toEqual([]);
      expect(readdirSync(clone).filter((n) => n.endsWith('.js'))).toEqual([]);
    } finally {
      rmSync(suites, { recursive: true, force: true });
    }
  }, BUILD_MS);

  test.each([
    ['SIGINT', 'npm run build', 'npm', ['run', 'build']],
    ['SIGTERM', 'node bin/build.mjs', process.execPath, ['bin/build.mjs']],
  ] as const)('%s to the process group of %s while tsc compiles leaves the old dist/ working, and no temporary', async (signal, _shown, command, args) => {
    const stamp = readFileSync(stampFile, 'utf8');
    editSource();
    const stopped = await inClone(command, [...args], signal);
    await settled();
    expect(stopped.code === 0 && stopped.signal === null, `the build ended on its own before ${signal}:\n${stopped.output}`).toBe(false);
    expect(readFileSync(stampFile, 'utf8')).toBe(stamp);
    expect(temporaries()).toEqual([]);
    const shown = await builtProgram();
    expect([shown.code, shown.output]).toEqual([0, 'built\n']);
  }, BUILD_MS);

  test('after an interrupt, a dist/ whose stamp is not the sources\' is built again; the folders of builds that died are removed', async () => {
    const stamp = readFileSync(stampFile, 'utf8');
    // What a build killed by SIGKILL leaves: its unfinished folder, under the id of a process that ended.
    const dead = await inClone(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    expect(dead.code).toBe(0);
    const leftover = join(clone, `.dist-build-${dead.output}`);
    mkdirSync(leftover);
    writeFileSync(join(leftover, 'half.js'), '');
    const built = await inClone('npm', ['run', '--silent', 'build']);
    expect(built.code, built.output).toBe(0);
    expect(built.output).toContain(COMPILING);
    expect(readFileSync(stampFile, 'utf8')).not.toBe(stamp);
    expect(temporaries()).toEqual([]);
    const shown = await builtProgram();
    expect([shown.code, shown.output]).toEqual([0, 'built\n']);
  }, BUILD_MS);

  test('a dist/ lost between the two renames of a swap comes back from the folder that holds it, without compiling', async () => {
    const stamp = readFileSync(stampFile, 'utf8');
    const dead = await inClone(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    renameSync(dist, join(clone, `.dist-old-${dead.output}`));
    const built = await inClone('npm', ['run', '--silent', 'build']);
    expect(built.code, built.output).toBe(0);
    expect(built.output).toContain('restored dist/');
    expect(built.output).not.toContain(COMPILING);
    expect(readFileSync(stampFile, 'utf8')).toBe(stamp);
    expect(temporaries()).toEqual([]);
  }, BUILD_MS);
});

describe('npm run build -- --no-check (the action\'s install)', () => {
  const wrong = join(clone, 'lib', 'wrong-type.ts');

  test('a checked dist/ of the same sources (the one the tests above left) serves an unchecked build as it is', async () => {
    const stamp = readFileSync(stampFile, 'utf8');
    expect(stamp).toMatch(/^[0-9a-f]{64}\n$/);
    const unchecked = await inClone('npm', ['run', '--silent', 'build', '--', '--no-check']);
    expect([unchecked.code, unchecked.output]).toEqual([0, '']);
    expect(readFileSync(stampFile, 'utf8')).toBe(stamp);
  }, BUILD_MS);

  test('emits a working dist/ from sources with a type error, stamped unchecked; a checked build then compiles them again and fails', async () => {
    writeFileSync(wrong, "export const COUNT: number = 'three';\n");
    try {
      const unchecked = await inClone('npm', ['run', '--silent', 'build', '--', '--no-check']);
      expect(unchecked.code, unchecked.output).toBe(0);
      expect(unchecked.output).toContain('--noCheck: no type check');
      expect(readFileSync(stampFile, 'utf8')).toMatch(/^[0-9a-f]{64} unchecked\n$/);
      const shown = await builtProgram();
      expect([shown.code, shown.output]).toEqual([0, 'built\n']);
      // The same sources, unchecked again: that dist/ serves.
      const again = await inClone('npm', ['run', '--silent', 'build', '--', '--no-check']);
      expect([again.code, again.output]).toEqual([0, '']);
      const checked = await inClone('npm', ['run', '--silent', 'build']);
      expect(checked.output).toContain(COMPILING);
      expect(checked.output).toContain("Type 'string' is not assignable to type 'number'");
      expect(checked.code).not.toBe(0);
      expect(readFileSync(stampFile, 'utf8')).toMatch(/ unchecked\n$/);
    } finally {
      rmSync(wrong, { force: true });
    }
    await settled();
  }, BUILD_MS);

  test('an unknown argument is refused with exit 2, naming it and the one there is, before anything is compiled', async () => {
    const refused = await inClone(process.execPath, ['bin/build.mjs', '--fast']);
    expect(refused.code).toBe(2);
    expect(refused.output).toBe('build: unknown argument "--fast"; the only one is --no-check (emit without type-checking)\n');
  }, BUILD_MS);
});
