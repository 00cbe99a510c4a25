#!/usr/bin/env node
// The compile step of bin/build.mjs, run by it as a process of its own (a signal stops it):
// `node bin/compile-lib.mjs OUT_DIR [--noCheck]`.
//
// One TypeScript program over lib/ and suites/ with tsconfig.build.json's options: both are
// type-checked, and only lib/'s JavaScript (and source maps) is written, into OUT_DIR, as
// `tsc -p tsconfig.build.json --outDir OUT_DIR` writes it. The suites ship as sources, which
// vitest runs from TypeScript without checking types; checked here, a type error in a suite fails
// the build that CI runs, for about a CPU second more than lib/ alone.
//
// `--noCheck` writes lib/'s output without the type check (tsc's `noCheck`). Diagnostics are
// printed as tsc prints them, and the exit code is tsc's: 0, or 2 when a diagnostic was found.
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const LIB = join(ROOT, 'lib') + sep;
const SUITES = join(ROOT, 'suites');
const NOT_UNDER_ROOT_DIR = 6059;
/** A path as TypeScript writes file names: with `/`. */
const forward = (path) => path.split(sep).join('/');

const [outDir, ...flags] = process.argv.slice(2);
if (outDir === undefined || flags.some((f) => f !== '--noCheck')) {
  process.stderr.write('compile-lib: usage: node bin/compile-lib.mjs OUT_DIR [--noCheck]\n');
  process.exit(1);
}
const check = !flags.includes('--noCheck');

const formatHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
const report = (diagnostics) => {
  if (diagnostics.length === 0) return;
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  process.stdout.write(format(diagnostics, formatHost));
};

const configHost = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => report([d]) };
const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.build.json'), { outDir, noCheck: !check }, configHost);
if (parsed === undefined) process.exit(2);

const suites = check ? ts.sys.readDirectory(SUITES, ['.ts']) : [];
const program = ts.createProgram({
  rootNames: [...parsed.fileNames, ...suites],
  options: parsed.options,
  projectReferences: parsed.projectReferences,
  configFileParsingDiagnostics: parsed.errors,
});
// A suite is "not under rootDir" (TS6059): it is checked with lib/ and never written.
const suiteOutsideLib = (d) => d.code === NOT_UNDER_ROOT_DIR && ts.flattenDiagnosticMessageText(d.messageText, '\n').startsWith(`File '${forward(SUITES)}/`);
const found = ts.getPreEmitDiagnostics(program).filter((d) => !suiteOutsideLib(d));
// Each of lib/'s files on its own: a suite's output would land outside OUT_DIR.
for (const file of program.getSourceFiles()) {
  if (!file.isDeclarationFile && file.fileName.startsWith(forward(LIB))) found.push(...program.emit(file).diagnostics);
}
report(found);
process.exitCode = found.some((d) => d.category === ts.DiagnosticCategory.Error) ? 2 : 0;
