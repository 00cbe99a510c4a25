import { closeSync, fstatSync, mkdtempSync, openSync, readSync, rmdirSync, statfsSync, statSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseDocument } from 'yaml';

/** The most a file the user names may hold: far above any profile, report or key, and never a whole device. */
export const USER_FILE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Files the user names on the command line (a profile, expectations, a baseline report, a key, a
 * bundle): read whole, up to `maxBytes`, and every way that can go wrong said in one clause for
 * the caller's error, which names the file and picks the exit code. A device is refused before it
 * is read (/dev/zero never ends), and a pipe (`<(...)`) is read only up to the bound.
 */
export function readUserBytes(file: string, fail: (message: string) => Error, maxBytes = USER_FILE_MAX_BYTES): Buffer {
  const cannot = (err: unknown): Error => {
    const code = (err as { code?: string }).code;
    return fail(code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? String(err)})`);
  };
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    throw cannot(err);
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isCharacterDevice() || stats.isBlockDevice()) throw fail('is a device, not a file');
    const tooBig = (): Error => fail(`holds more than ${maxBytes / 1024 / 1024} MiB; expected a file of at most that`);
    if (stats.isFile() && stats.size > maxBytes) throw tooBig();
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.allocUnsafe(64 * 1024);
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, chunk, 0, chunk.length, null);
      } catch (err) {
        throw cannot(err);
      }
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw tooBig();
      chunks.push(Buffer.from(chunk.subarray(0, n)));
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/** A file the user names, as text (readUserBytes). */
export function readUserFile(file: string, fail: (message: string) => Error): string {
  return readUserBytes(file, fail).toString('utf8');
}

/** A user's YAML file as data; a syntax error or a duplicate key is one clause with its line and column. */
export function readUserYaml(file: string, fail: (message: string) => Error): unknown {
  const doc = parseDocument(readUserFile(file, fail), { prettyErrors: true, uniqueKeys: true });
  const yamlError = doc.errors[0];
  if (yamlError !== undefined) {
    const at = yamlError.linePos?.[0];
    // The parser's pretty message ends its first line with the position and a colon before an
    // excerpt: the position is said once, here, and the excerpt left out (one line).
    const said = yamlError.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw fail(`is not valid YAML${at === undefined ? '' : ` at line ${at.line}, column ${at.col}`}: ${said}`);
  }
  try {
    return doc.toJS() as unknown;
  } catch (err) {
    // yaml names the alias in its message, and an alias may be a pasted token: not printed back.
    if (/excessive alias count/i.test((err as Error).message)) throw fail('is not valid YAML: its aliases (*name) expand too far, as a YAML bomb does');
    throw fail('is not valid YAML: an alias (*name) refers to no anchor (&name) set before it');
  }
}

/**
 * Kernel file systems by their statfs magic number: no storage, and Node's recursive mkdir loops
 * for ever under /proc (it reads the ENOENT there as a parent still to make).
 */
const KERNEL_FILE_SYSTEMS: Record<number, string> = { 0x9fa0: '/proc', 0x62656572: '/sys' };

const NOT_WRITABLE: Record<string, string> = { EACCES: 'permission denied', EPERM: 'not permitted', EROFS: 'a read-only file system', ENOSPC: 'no space left' };

/** The path's status, or undefined when it is not there (a missing part, or a file where a folder would be). */
function statIfThere(path: string, fail: (message: string) => Error): Stats | undefined {
  try {
    return statSync(path);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw fail(`cannot be reached (${code ?? String(err)} at ${path})`);
  }
}

/**
 * A folder the user names to write into (`--out`), checked before anything runs: the folder, or
 * the nearest part of its path that exists (where it would be made), is a folder, on storage, and
 * this process can create an entry in it (tried, then removed: permission bits do not stop root,
 * a read-only mount does). Every way it fails is one clause for the caller's error.
 */
export function checkWritableFolder(folder: string, fail: (message: string) => Error): void {
  const target = resolve(folder);
  let existing = target;
  let stats = statIfThere(existing, fail);
  while (stats === undefined && dirname(existing) !== existing) {
    existing = dirname(existing);
    stats = statIfThere(existing, fail);
  }
  if (stats === undefined) throw fail('cannot be reached (no part of its path exists)');
  if (!stats.isDirectory()) {
    const what = stats.isFile() ? 'is a file' : 'is not a folder';
    throw fail(existing === target ? `${what}; expected a folder` : `cannot be made: ${existing} ${what}`);
  }
  const kernel = KERNEL_FILE_SYSTEMS[statfsSync(existing).type];
  if (kernel !== undefined) throw fail(`is under ${kernel}, a kernel file system; expected a folder on disk`);
  try {
    rmdirSync(mkdtempSync(join(existing, '.asi-write-check-')));
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'error';
    throw fail(`cannot be written: ${NOT_WRITABLE[code] ?? code} (${code} at ${existing})`);
  }
}

/**
 * A file the user names to write (`badge --out`, `calibrate --json`), checked before any work: not
 * a folder, and its folder there, on storage, and writable (checkWritableFolder). Its folder is
 * not made: a mistyped folder is said, not created.
 */
export function checkWritableFile(file: string, fail: (message: string) => Error): void {
  const target = resolve(file);
  if (statIfThere(target, fail)?.isDirectory() === true) throw fail('is a folder; expected a file name');
  const folder = dirname(target);
  if (statIfThere(folder, fail) === undefined) throw fail(`cannot be written: its folder ${folder} does not exist`);
  checkWritableFolder(folder, fail);
}
