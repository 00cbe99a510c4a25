import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BundleError } from '../errors.ts';
import { BUNDLE_LIMITS, MANIFEST_NAME, badEntryName, isRecordFile } from './bundle-layout.ts';
import { readTarGz, TarProblem } from './tar-reader.ts';
import { readUserBytes } from '../user-file.ts';

/** One line of a record file: its number (from 1) and its JSON value, or why it is none. */
export interface RecordLine {
  line: number;
  value?: unknown;
  error?: string;
}

/**
 * A certification bundle as read from disk, archive or folder alike: its files by name (nothing
 * checked yet but that it is a bundle at all) and generic access to its record files
 * (`record/*.jsonl`), so that a new record needs no change here.
 */
export interface OpenedBundle {
  /** The path as given. */
  source: string;
  form: 'tar.gz' | 'folder';
  /** SHA-256 of the archive, or of manifest.json for a folder. */
  digest: string;
  files: ReadonlyMap<string, Buffer>;
  /** Names of the record files the bundle holds, sorted. */
  recordNames(): string[];
  /** The lines of a record file, parsed (once); undefined when the bundle has no such file. */
  recordLines(name: string): readonly RecordLine[] | undefined;
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** JSON lines split at LF bytes (never inside a UTF-8 sequence); blank lines skipped, a line cut short kept as an error. */
function parseLines(bytes: Buffer): RecordLine[] {
  const lines: RecordLine[] = [];
  let start = 0;
  for (let n = 1; start < bytes.length; n += 1) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    const text = bytes.toString('utf8', start, end);
    start = end + 1;
    if (text.trim() === '') continue;
    try {
      lines.push({ line: n, value: JSON.parse(text) as unknown });
    } catch (err) {
      lines.push({ line: n, error: `not JSON (${(err as Error).message})` });
    }
  }
  return lines;
}

function withRecords(source: string, form: OpenedBundle['form'], digest: string, files: Map<string, Buffer>): OpenedBundle {
  const parsed = new Map<string, RecordLine[]>();
  return {
    source,
    form,
    digest,
    files,
    recordNames: () => [...files.keys()].filter(isRecordFile).sort(),
    recordLines(name) {
      const bytes = files.get(name);
      if (bytes === undefined) return undefined;
      let lines = parsed.get(name);
      if (lines === undefined) {
        lines = parseLines(bytes);
        parsed.set(name, lines);
      }
      return lines;
    },
  };
}

/** A bundle folder's files: regular files only (a link is refused, never followed), within the bounds. */
function readFolder(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let total = 0;
  const visit = (relative: string): void => {
    for (const name of readdirSync(join(root, relative)).sort()) {
      const path = relative === '' ? name : `${relative}/${name}`;
      const bad = badEntryName(path);
      if (bad !== undefined) throw new BundleError(root, `${JSON.stringify(path)} has ${bad}`);
      const stat = lstatSync(join(root, path));
      if (stat.isSymbolicLink()) throw new BundleError(root, `${path} is a symbolic link: a bundle holds regular files only`);
      if (stat.isDirectory()) {
        visit(path);
        continue;
      }
      if (!stat.isFile()) throw new BundleError(root, `${path} is not a regular file: a bundle holds regular files only`);
      if (files.size >= BUNDLE_LIMITS.files) throw new BundleError(root, `holds more than ${BUNDLE_LIMITS.files} files`);
      total += stat.size;
      if (total > BUNDLE_LIMITS.unpackedBytes) throw new BundleError(root, `its files hold more than ${BUNDLE_LIMITS.unpackedBytes / 1024 / 1024} MiB`);
      files.set(path, readFileSync(join(root, path)));
    }
  };
  visit('');
  return files;
}

/** What was given is no bundle at all: said first, with what a bundle is; the detail follows. */
export const NOT_A_BUNDLE = 'is not a certification bundle (the bundle.tar.gz or --bundle-dir folder a run writes, with its manifest.json)';

/** Up to five names of a folder's top, to say what it holds instead. */
function someEntries(names: readonly string[]): string {
  return names.length === 0 ? 'it is empty' : `it holds ${names.slice(0, 5).join(', ')}${names.length > 5 ? `, … (${names.length} entries)` : ''}`;
}

/**
 * Opens a bundle: a `.tar.gz` as `run` writes it, or a folder (`--bundle-dir`, or an archive
 * unpacked). Anything that is not a bundle at all (no such path, not a gzip'd ustar archive, a
 * link or a path out of the bundle, past the bounds, no manifest) is a BundleError (exit 2).
 */
export function openBundle(source: string): OpenedBundle {
  const stat = statSync(source, { throwIfNoEntry: false });
  if (stat === undefined) throw new BundleError(source, 'no such file or folder');
  let files: Map<string, Buffer>;
  let form: OpenedBundle['form'];
  let archive: Buffer | undefined;
  if (stat.isDirectory()) {
    form = 'folder';
    // Looked for before anything is read: a folder that is no bundle (`verify /etc`) is said to be
    // none, not described by the first odd name found in it.
    if (statSync(join(source, MANIFEST_NAME), { throwIfNoEntry: false })?.isFile() !== true) {
      throw new BundleError(source, `${NOT_A_BUNDLE}: a folder without ${MANIFEST_NAME} (${someEntries(readdirSync(source).sort())})`);
    }
    files = readFolder(source);
  } else {
    form = 'tar.gz';
    // The compressed file is bounded too: a bundle unpacks to more than it weighs.
    if (stat.size > BUNDLE_LIMITS.unpackedBytes) throw new BundleError(source, `is larger than ${BUNDLE_LIMITS.unpackedBytes / 1024 / 1024} MiB`);
    archive = readUserBytes(source, (message) => new BundleError(source, message), BUNDLE_LIMITS.unpackedBytes);
    try {
      files = readTarGz(archive);
    } catch (err) {
      if (err instanceof TarProblem) throw new BundleError(source, `${NOT_A_BUNDLE}: ${err.message}`);
      throw err;
    }
  }
  const manifest = files.get(MANIFEST_NAME);
  if (manifest === undefined) throw new BundleError(source, `${NOT_A_BUNDLE}: an archive without ${MANIFEST_NAME} (${someEntries([...files.keys()])})`);
  return withRecords(source, form, sha256(archive ?? manifest), files);
}
