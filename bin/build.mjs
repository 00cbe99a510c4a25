#!/usr/bin/env node
// Builds dist/ from lib/ (bin/compile-lib.mjs: tsconfig.build.json's options, lib/ and suites/
// type-checked as one program, lib/ written), only when what the build reads changed, and so that
// an interrupt at any moment leaves a working dist/: the old one or the new one.
//
// - What the build reads (every file under lib/ and suites/, the profile schema, the tsconfig
//   files, package.json, the two build scripts, and the installed TypeScript, @types/node and ajv
//   versions) is hashed; dist/.build-stamp holds the digest of the build it came from. The same
//   digest: nothing to do, nothing is compiled.
// - After the compile, the validators of the profile schema and of the contract are written as
//   code into the built folder (lib/built-validators.ts), so that runs need not compile them.
// - Otherwise the compile writes into a fresh folder beside dist/ (.dist-build-<pid>), the stamp
//   goes in last, and the folder is swapped in by two renames in one synchronous step, which no
//   signal handled here can split. The old dist/ is removed only after the new one is in place.
// - SIGINT or SIGTERM stops the compile and removes the unfinished folder; dist/ stays as it was.
//   A folder left by a build that died (SIGKILL) is removed by the next build, and a dist/ lost in
//   the instant between the two renames is restored from the folder that holds it.
// - `--no-check` (the action's install) emits without type-checking; its stamp says "unchecked",
//   and a build without the flag compiles such a dist/ again, with the check.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const STAMP = '.build-stamp';
const BUILDING = '.dist-build-';
const RETIRED = '.dist-old-';
const require = createRequire(join(ROOT, 'package.json'));

/** Every file under a folder, relative to ROOT with `/`, sorted (none when there is no such folder). */
function filesUnder(folder) {
  const out = [];
  if (!existsSync(join(ROOT, folder))) return out;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.push(relative(ROOT, full).split(sep).join('/'));
    }
  };
  walk(join(ROOT, folder));
  return out.sort();
}

/** The installed version of a package the build uses, or "none". */
function installedVersion(name) {
  try {
    return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
  } catch {
    return 'none';
  }
}

/** SHA-256 over what the build reads: a line per input file (its digest and path), then the tool versions. */
function buildDigest() {
  const all = createHash('sha256');
  const inputs = [...filesUnder('lib'), ...filesUnder('suites'), 'config/profile.schema.json', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'bin/build.mjs', 'bin/compile-lib.mjs'];
  for (const path of inputs) {
    const file = createHash('sha256').update(readFileSync(join(ROOT, path))).digest('hex');
    all.update(`${file}  ${path}\n`);
  }
  all.update(`typescript ${installedVersion('typescript')}\n@types/node ${installedVersion('@types/node')}\najv ${installedVersion('ajv')}\n`);
  return all.digest('hex');
}

/** The stamp of a built folder, or undefined when it has none. */
function stampOf(folder) {
  try {
    return readFileSync(join(folder, STAMP), 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Whether a process with this id still runs (a build under way in another process). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/**
 * Folders of builds that no longer run: a dist/ lost between the two renames comes back from the
 * newest complete one (a stamped new build, else the retired old one); the rest are removed.
 */
function recoverAndClean() {
  const stale = readdirSync(ROOT)
    .map((name) => ({ name, m: new RegExp(`^(${BUILDING}|${RETIRED})(\\d+)$`).exec(name) }))
    .filter(({ m }) => m !== null && Number(m[2]) !== process.pid && !alive(Number(m[2])));
  if (!existsSync(DIST)) {
    const complete = stale.find(({ m }) => m[1] === BUILDING && stampOf(join(ROOT, m[0])) !== undefined) ?? stale.find(({ m }) => m[1] === RETIRED);
    if (complete !== undefined) {
      renameSync(join(ROOT, complete.name), DIST);
      process.stderr.write(`build: restored dist/ from ${complete.name}, left by an interrupted build\n`);
    }
  }
  for (const { name } of stale) rmSync(join(ROOT, name), { recursive: true, force: true });
}

/** Puts the built folder in dist/'s place; the old dist/ goes aside first and is removed after. */
function swapIn(built) {
  const retired = join(ROOT, `${RETIRED}${process.pid}`);
  // Another build may swap at the same moment: try again until ours is in place.
  for (let attempt = 0; ; attempt += 1) {
    try {
      renameSync(DIST, retired);
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
    try {
      renameSync(built, DIST);
      break;
    } catch (err) {
      if (!['ENOTEMPTY', 'EEXIST'].includes(err.code) || attempt >= 5) throw err;
      rmSync(retired, { recursive: true, force: true });
    }
  }
  rmSync(retired, { recursive: true, force: true });
}

/**
 * `--no-check`: tsc emits without type-checking (its `--noCheck`), in about half the CPU. The
 * output is the same byte for byte: `isolatedModules` and `verbatimModuleSyntax` make each file's
 * JavaScript independent of types. For the action's install, whose sources were checked before
 * they were released; a clone's build keeps the check. The stamp says which it was.
 */
function parseArgs(argv) {
  const unknown = argv.filter((a) => a !== '--no-check');
  if (unknown.length > 0) {
    process.stderr.write(`build: unknown argument ${JSON.stringify(unknown[0])}; the only one is --no-check (emit without type-checking)\n`);
    process.exit(2);
  }
  return { check: !argv.includes('--no-check') };
}

/**
 * What the build adds to tsc's output (validators of the project's own schemas, as code: compiling
 * them took a run about 70 ms), then the stamp, last: a folder with a stamp is a complete build.
 */
async function complete(building, stamp, stoppedBy) {
  const writer = join(building, 'built-validators.js');
  try {
    // A lib/ without the module that writes them (a project of two modules, in the build's own tests) has none to write.
    if (existsSync(writer)) (await import(pathToFileURL(writer).href)).writeBuiltValidators(building);
  } catch (err) {
    rmSync(building, { recursive: true, force: true });
    process.stderr.write(`build: writing the schema validators failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
    return;
  }
  const by = stoppedBy();
  if (by !== undefined) {
    rmSync(building, { recursive: true, force: true });
    process.stderr.write(`build: stopped by ${by}; dist/ is left as it was\n`);
    process.exitCode = 128 + ({ SIGHUP: 1, SIGINT: 2, SIGTERM: 15 }[by] ?? 0);
    return;
  }
  writeFileSync(join(building, STAMP), `${stamp}\n`);
  swapIn(building);
}

function main() {
  const { check } = parseArgs(process.argv.slice(2));
  recoverAndClean();
  const digest = buildDigest();
  // A checked build wants a checked dist/; an unchecked one takes either. The stamp says which it is.
  const stamp = check ? digest : `${digest} unchecked`;
  const current = statSync(DIST, { throwIfNoEntry: false })?.isDirectory() ? stampOf(DIST) : undefined;
  if (current === digest || current === stamp) return;

  try {
    require.resolve('typescript');
  } catch {
    process.stderr.write('build: TypeScript is not installed (a dev dependency): run `npm ci` first\n');
    process.exitCode = 2;
    return;
  }
  const building = join(ROOT, `${BUILDING}${process.pid}`);
  rmSync(building, { recursive: true, force: true });
  process.stderr.write(`build: compiling lib/ into dist/ (tsconfig.build.json${check ? ', lib/ and suites/ type-checked' : ', --noCheck: no type check'})\n`);
  const compile = spawn(process.execPath, [join(ROOT, 'bin', 'compile-lib.mjs'), building, ...(check ? [] : ['--noCheck'])], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  let stoppedBy;
  const stop = (signal) => {
    // The first signal stops the compile; its exit then removes the unfinished folder and ends the build.
    if (stoppedBy !== undefined) return;
    stoppedBy = signal;
    compile.kill(signal);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
  compile.on('exit', (code, signal) => {
    const by = stoppedBy ?? signal ?? undefined;
    if (by !== undefined || code !== 0) {
      rmSync(building, { recursive: true, force: true });
      if (by !== undefined) process.stderr.write(`build: stopped by ${by}; dist/ is left as it was\n`);
      process.exitCode = by === undefined ? (code ?? 1) : 128 + ({ SIGHUP: 1, SIGINT: 2, SIGTERM: 15 }[by] ?? 0);
      return;
    }
    void complete(building, stamp, () => stoppedBy);
  });
}

main();
