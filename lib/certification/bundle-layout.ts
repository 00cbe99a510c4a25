/**
 * What a certification bundle holds and how its files are named. The same names serve the
 * archive (`bundle.tar.gz`) and the folder (`--bundle-dir`) forms.
 */

/** The in-toto Statement (or the DSSE envelope that signs it): the digest of every other file. */
export const MANIFEST_NAME = 'manifest.json';

/** The profile as the report shows it (tokens as their variables), as YAML. */
export const PROFILE_NAME = 'profile.yaml';

/** Folder of the run's records, JSON lines each: exchanges, and any record a later step adds. */
export const RECORD_FOLDER = 'record';

/** Every exchange of the run, the JSON lines as recorded (transcript.har leaves content out past a budget). */
export const EXCHANGES_RECORD = `${RECORD_FOLDER}/exchanges.jsonl`;

/** The run's judgements: every checker call with its inputs and output (lib/judgement/). */
export const JUDGEMENTS_RECORD = `${RECORD_FOLDER}/judgements.jsonl`;

/** The archive's name in the run folder. */
export const BUNDLE_FILE_NAME = 'bundle.tar.gz';

/** The predicate of the manifest's Statement: this harness's own. */
export const PREDICATE_TYPE = 'https://asi-conformance.dev/certification/v1';

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';

/** DSSE payload type of an in-toto Statement. */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

/**
 * Bounds of what a reader accepts: a bundle is evidence from elsewhere, possibly hostile. A
 * certification of a flooding target keeps about 256 KiB per exchange in its record, so a
 * thousand-request run stays far below them.
 */
export const BUNDLE_LIMITS = {
  /** Bytes of all files together, unpacked. */
  unpackedBytes: 1024 * 1024 * 1024,
  files: 1000,
  /** Folders a file may sit in (`record/exchanges.jsonl` is one deep). */
  depth: 4,
  nameLength: 200,
} as const;

/** A name segment: letters, digits, dot, dash, underscore; never `.` or `..`. */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/**
 * Why `name` cannot be a file of a bundle (a path that leaves the bundle, an absolute path, odd
 * characters), or undefined when it can. Names use `/` between folders.
 */
export function badEntryName(name: string): string | undefined {
  if (name.length === 0) return 'an empty name';
  if (name.length > BUNDLE_LIMITS.nameLength) return `a name of ${name.length} characters (at most ${BUNDLE_LIMITS.nameLength})`;
  if (name.startsWith('/')) return 'an absolute path';
  const segments = name.split('/');
  if (segments.includes('..')) return 'a path that climbs out of the bundle (..)';
  if (segments.length > BUNDLE_LIMITS.depth + 1) return `a path more than ${BUNDLE_LIMITS.depth} folders deep`;
  if (!segments.every((s) => SEGMENT.test(s))) return 'a name with characters other than letters, digits, dot, dash and underscore';
  return undefined;
}

/** True for the files of the record folder (`record/*.jsonl`). */
export function isRecordFile(name: string): boolean {
  return name.startsWith(`${RECORD_FOLDER}/`) && name.endsWith('.jsonl') && !name.slice(RECORD_FOLDER.length + 1).includes('/');
}
