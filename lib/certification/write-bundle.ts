import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { stringify } from 'yaml';
import { commandPrefix, shellWord } from '../invocation.ts';
import { hideLocalPaths, pathForReport } from '../report/local-paths.ts';
import type { Report } from '../report/report-model.ts';
import { SecretGuard } from '../report/secret-guard.ts';
import { REPORT_FILE_NAMES, REPORT_FORMATS, isMarkup, renderReport, writePieces, writeReports } from '../report/write-reports.ts';
import type { CertificatePanel } from '../report/writers/certificate-panel.ts';
import { linesOf } from '../report/writers/transcript.ts';
import { judgementsFile } from '../judgement/judgement-line.ts';
import { BUNDLE_FILE_NAME, EXCHANGES_RECORD, IN_TOTO_PAYLOAD_TYPE, JUDGEMENTS_RECORD, MANIFEST_NAME, PROFILE_NAME, RECORD_FOLDER } from './bundle-layout.ts';
import { signEnvelope } from './dsse.ts';
import { harnessIdentity } from './harness-identity.ts';
import { PUBLIC_KEY_FILE, type SigningKey } from './signing-key.ts';
import { predicateOf, statementOf } from './statement.ts';
import { writeTarGz, type TarSource } from './tar-writer.ts';
import { jsonText } from '../model/json-text.ts';

/** What the run was asked for: the archive in the run folder (default) or a folder, signed or not. */
export interface BundleRequest {
  /** `--bundle-dir`: write the bundle's files into this folder (new or empty) instead of an archive. */
  dir?: string;
  /** `--sign-key`: wrap the manifest in a DSSE envelope signed with this key. */
  signKey?: SigningKey;
}

export interface WriteBundleOptions {
  /** The run's report folder. */
  runDir: string;
  /** The run's exchange record (`.transcript.jsonl`), as the session appended it. */
  transcriptFile: string;
  /** Report files already written into runDir: taken as they are rather than rendered again. */
  written: readonly string[];
  /** Token values of the run: no file of the bundle may hold one. */
  secrets: readonly string[];
  request: BundleRequest;
  /** The folder paths are shown relative to (the working folder). */
  cwd?: string;
}

export interface WrittenBundle {
  path: string;
  /** The path as reports show it (relative to the working folder, local folders hidden). */
  shown: string;
  form: 'tar.gz' | 'folder';
  /** SHA-256 of the archive, or of manifest.json for a folder. */
  sha256: string;
  /** SHA-256 of record/exchanges.jsonl. */
  recordSha256: string;
  keyid?: string;
  /** Names of the bundle's files, sorted. */
  files: string[];
  /** The signing key's files, when the manifest is signed (as given). */
  signer?: SignerFiles;
  /** Milliseconds writing the bundle took (the beside report.html's certificate included). */
  ms: number;
}

interface BundleFile {
  name: string;
  path: string;
  size: number;
  sha256: string;
}

async function described(name: string, path: string): Promise<BundleFile> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { name, path, size, sha256: hash.digest('hex') };
}

/** The record's lines as recorded, in pieces of whole lines (so that a local path is never split between two). */
async function* recordPieces(file: string): AsyncGenerator<string> {
  let piece = '';
  for await (const { text } of linesOf(file)) {
    piece += `${text}\n`;
    if (piece.length >= 65_536) {
      yield piece;
      piece = '';
    }
  }
  if (piece !== '') yield piece;
}

/**
 * The run's record files: every exchange (the session's transcript) as record/exchanges.jsonl,
 * and every `*.jsonl` the run left in `<run dir>/record/` under its own name.
 */
async function recordSources(runDir: string, transcriptFile: string): Promise<Array<{ name: string; path: string }>> {
  const sources = new Map<string, string>([
    [EXCHANGES_RECORD, transcriptFile],
    [JUDGEMENTS_RECORD, judgementsFile(transcriptFile)],
  ]);
  const folder = join(runDir, RECORD_FOLDER);
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names.sort()) if (name.endsWith('.jsonl')) sources.set(`${RECORD_FOLDER}/${name}`, join(folder, name));
  return [...sources].map(([name, path]) => ({ name, path }));
}

function profileYaml(report: Report): string {
  const head = [
    `# The profile of run ${report.meta.runId} as its report shows it: tokens and secret headers as the`,
    '# variables that held them, never their values; local folders hidden.',
  ].join('\n');
  return `${head}\n${stringify(report.meta.profile ?? {}, { lineWidth: 0 })}`;
}

/** A path as reports show it: relative to the working folder when inside it, local folders hidden. */
function shownPath(path: string, cwd: string): string {
  const near = relative(cwd, path);
  return near !== '' && !near.startsWith('..') && !isAbsolute(near) ? near : pathForReport(path, cwd);
}

/** The signing key's files as a printed line names them (each path as that line shows paths). */
export interface SignerFiles {
  privateFile: string;
  /** The public key beside it, when there is one that pairs with it. */
  publicFile?: string;
}

/** The offline check of a bundle as the user types it, and what they need to know to run it. */
export interface VerifyHint {
  command: string;
  /** Where the public key comes from, when the command cannot name its file. */
  note?: string;
}

/** Stands in the verify command for a public key that lies nowhere the run could see. */
export const PUBLIC_KEY_PLACEHOLDER = 'PUBLIC_KEY';

/**
 * `<cli> verify <bundle> [--public-key <file>]`. A signed bundle is checked with the public key
 * beside the signing key (keygen writes it there). When there is none, the command names a
 * placeholder and says which key it stands for, rather than writing the public key out of the
 * private one next to the bundle: a key that travels with the bundle would let anyone who edits
 * the bundle sign it anew and ship the matching key, so a certifier must take the signer's
 * published key, never one from the bundle's folder.
 */
export function verifyHintOf(bundlePath: string, signer: SignerFiles | undefined, cli: string): VerifyHint {
  const command = `${cli} verify ${shellWord(bundlePath)}`;
  if (signer === undefined) return { command };
  if (signer.publicFile !== undefined) return { command: `${command} --public-key ${shellWord(signer.publicFile)}` };
  return {
    command: `${command} --public-key ${PUBLIC_KEY_PLACEHOLDER}`,
    note: `${PUBLIC_KEY_PLACEHOLDER} is the public key that pairs with ${signer.privateFile}; none lies beside it (keygen writes it there as ${PUBLIC_KEY_FILE})`,
  };
}

/** The signing key's files. */
function signerOf(key: SigningKey): SignerFiles {
  return { privateFile: key.file, ...(key.publicFile === undefined ? {} : { publicFile: key.publicFile }) };
}

/** The signer's files with each path as `shown` shows it. */
export function signerShown(signer: SignerFiles | undefined, shown: (path: string) => string): SignerFiles | undefined {
  if (signer === undefined) return undefined;
  return { privateFile: shown(signer.privateFile), ...(signer.publicFile === undefined ? {} : { publicFile: shown(signer.publicFile) }) };
}

/** Refuses a --bundle-dir that holds anything: a bundle is exactly its files. */
export async function checkBundleDir(dir: string): Promise<string | undefined> {
  const entries = await readdir(dir).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? [] : err));
  if (entries instanceof Error) return entries.code === 'ENOTDIR' ? 'is a file, not a folder' : `cannot be read (${entries.code ?? entries.message})`;
  return entries.length === 0 ? undefined : 'is not empty: a bundle folder holds exactly the bundle\'s files (give a new or empty folder)';
}

/**
 * Writes the run's certification bundle: the five reports, the exchange record (and any other
 * record of the run), the profile with its secrets replaced and a manifest (an in-toto Statement,
 * signed in a DSSE envelope with a key) naming the SHA-256 of every file. Every file passes the
 * same guards as the reports (local folders hidden, no token). The report.html inside the bundle
 * carries its certificate panel; report.html beside it, when the run wrote one, is written again
 * with the bundle's digest. Must run before the run's working files are removed.
 */
export async function writeBundle(report: Report, options: WriteBundleOptions): Promise<WrittenBundle> {
  const started = performance.now();
  const { runDir, transcriptFile, request } = options;
  const cwd = options.cwd ?? process.cwd();
  const form = request.dir === undefined ? 'tar.gz' : 'folder';
  const target = request.dir === undefined ? join(runDir, BUNDLE_FILE_NAME) : resolve(cwd, request.dir);
  const key = request.signKey;
  const shown = shownPath(target, cwd);
  // The reports show the command as the run's folder reads it; report.html travels, so its paths are hidden like every other.
  const signer = key === undefined ? undefined : signerOf(key);
  const hint = verifyHintOf(shown, signerShown(signer, (p) => shownPath(resolve(cwd, p), cwd)), commandPrefix(cwd));
  const staging = join(runDir, '.bundle.partial');
  const guard = (name: string): SecretGuard => new SecretGuard(name, options.secrets);
  await rm(staging, { recursive: true, force: true });
  await mkdir(join(staging, RECORD_FOLDER), { recursive: true });
  try {
    const files: BundleFile[] = [];
    const stage = async (name: string, pieces: Iterable<string> | AsyncIterable<string>, markup = false): Promise<BundleFile> => {
      const path = join(staging, name);
      await writePieces(path, pieces, guard(name), markup);
      const file = await described(name, path);
      files.push(file);
      return file;
    };
    for (const source of await recordSources(runDir, transcriptFile)) await stage(source.name, recordPieces(source.path));
    const recordSha256 = files.find((f) => f.name === EXCHANGES_RECORD)!.sha256;
    const panel: CertificatePanel = {
      copy: 'inside',
      bundle: { path: shown, form },
      recordSha256,
      ...(key === undefined ? {} : { keyid: key.keyid }),
      verifyCommand: hint.command,
      ...(hint.note === undefined ? {} : { publicKeyNote: hint.note }),
    };
    for (const format of REPORT_FORMATS) {
      const name = REPORT_FILE_NAMES[format];
      const beside = join(runDir, name);
      if (format !== 'html' && options.written.includes(beside)) files.push(await described(name, beside));
      else await stage(name, renderReport(format, report, transcriptFile, format === 'html' ? panel : undefined), isMarkup(format));
    }
    await stage(PROFILE_NAME, [profileYaml(report)]);
    files.sort((a, b) => (a.name < b.name ? -1 : 1));

    const statement = statementOf(
      files.map((f) => ({ name: f.name, digest: { sha256: f.sha256 } })),
      predicateOf(report, harnessIdentity()),
    );
    // Local folders are hidden before signing: the signature covers the text as written.
    const body = hideLocalPaths(`${jsonText(statement, 2)}\n`);
    guard(MANIFEST_NAME).check(body);
    const envelope = key === undefined ? undefined : signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from(body), key.privateKey, key.keyid);
    const manifest = await stage(MANIFEST_NAME, [envelope === undefined ? body : `${jsonText(envelope, 2)}\n`]);
    const entries: TarSource[] = [...files].sort((a, b) => (a.name < b.name ? -1 : 1));

    let sha256: string;
    if (form === 'tar.gz') {
      const partial = `${target}.partial`;
      sha256 = await writeTarGz(partial, entries, Date.parse(report.meta.finishedAt) / 1000);
      await rename(partial, target);
    } else {
      const problem = await checkBundleDir(target);
      if (problem !== undefined) throw new Error(`--bundle-dir ${target} ${problem}`);
      for (const file of files) {
        const to = join(target, file.name);
        await mkdir(dirname(to), { recursive: true });
        if (file.path.startsWith(staging)) await rename(file.path, to);
        else await copyFile(file.path, to);
      }
      sha256 = manifest.sha256;
    }
    const bundle: WrittenBundle = {
      path: target,
      shown,
      form,
      sha256,
      recordSha256,
      ...(key === undefined ? {} : { keyid: key.keyid }),
      files: files.map((f) => f.name),
      ...(signer === undefined ? {} : { signer }),
      ms: 0,
    };
    const besideHtml = join(runDir, REPORT_FILE_NAMES.html);
    if (options.written.includes(besideHtml)) {
      const certificate: CertificatePanel = { ...panel, copy: 'beside', bundle: { ...panel.bundle, sha256 } };
      await writeReports(report, { dir: runDir, formats: ['html'], transcriptFile, secrets: options.secrets, certificate });
    }
    bundle.ms = Math.round(performance.now() - started);
    return bundle;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
