import { mkdir, open, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { hideLocalPaths } from './local-paths.ts';
import type { Report } from './report-model.ts';
import { SecretGuard } from './secret-guard.ts';
import { transcriptHarPieces, type HarEntryLog } from './writers/har.ts';
import type { CertificatePanel } from './writers/certificate-panel.ts';
import { reportHtml } from './writers/html.ts';
import { reportJsonPieces } from './writers/json.ts';
import { junitXml } from './writers/junit.ts';
import { summaryMarkdown } from './writers/markdown.ts';
import { REPORT_FILE_NAMES, REPORT_FORMATS, isMarkup, type ReportFormat } from './report-formats.ts';

export { REPORT_FILE_NAMES, REPORT_FORMATS, isMarkup, type ReportFormat } from './report-formats.ts';

export interface WriteReportsOptions {
  /** Folder of this run's reports (`reports/<run-id>/`); created when missing. */
  dir: string;
  formats: readonly ReportFormat[];
  /** The run's transcript (JSON lines of redacted exchanges); the HAR is built from it. */
  transcriptFile: string;
  /** Token values of the run. A file that would contain one is not written. */
  secrets?: readonly string[];
  /** The certification bundle, for report.html's certificate panel. */
  certificate?: CertificatePanel;
  /** The HAR's entries, made while the run read its record: transcript.har is then written from them. */
  harEntries?: HarEntryLog;
}

/** A format's text: whole for the reports built from the Report, in pieces for the HAR (of any size). */
export function renderReport(format: ReportFormat, report: Report, transcriptFile: string, certificate?: CertificatePanel, harEntries?: HarEntryLog): Iterable<string> | AsyncIterable<string> {
  switch (format) {
    case 'json':
      return reportJsonPieces(report);
    case 'junit':
      return [junitXml(report)];
    case 'md':
      return [summaryMarkdown(report)];
    case 'html':
      return [reportHtml(report, certificate)];
    case 'har':
      return transcriptHarPieces(report, transcriptFile, harEntries === undefined ? {} : { entries: harEntries });
  }
}

/**
 * Characters of pieces written at once: a write per piece waits on the file system thousands of
 * times for a big HAR (one piece per exchange), and the pieces are small.
 */
const WRITE_CHUNK_CHARS = 1 << 20;

/** Writes `pieces` to `path`, each checked by `guard` before it goes to disk (WRITE_CHUNK_CHARS of them at a time). */
export async function writePieces(path: string, pieces: Iterable<string> | AsyncIterable<string>, guard: SecretGuard, markup = false): Promise<void> {
  const file = await open(path, 'w');
  try {
    let held: string[] = [];
    let heldChars = 0;
    for await (const piece of pieces) {
      // Reports travel: the folders of the machine that wrote them stay behind.
      const text = hideLocalPaths(piece, process.cwd(), markup);
      guard.check(text);
      held.push(text);
      heldChars += text.length;
      if (heldChars >= WRITE_CHUNK_CHARS) {
        await file.write(held.join(''));
        held = [];
        heldChars = 0;
      }
    }
    if (held.length > 0) await file.write(held.join(''));
  } finally {
    await file.close();
  }
}

/** Removes the folders `mkdir` made, from `dir` up to `created`; a folder holding anything stays. */
async function removeCreated(dir: string, created: string | undefined): Promise<void> {
  if (created === undefined) return;
  for (let d = dir; ; d = dirname(d)) {
    try {
      await rmdir(d);
    } catch {
      return;
    }
    if (d === created || dirname(d) === d) return;
  }
}

/**
 * Writes the chosen report files of one run and returns their paths. One format at a time is
 * rendered, checked for secrets and written under a working name: a run of any size never holds
 * every report in memory at once. Only when every file passed are they renamed to their names, so
 * that a leak leaves no partial report behind.
 */
export async function writeReports(report: Report, options: WriteReportsOptions): Promise<string[]> {
  const formats = REPORT_FORMATS.filter((f) => options.formats.includes(f));
  const created = await mkdir(options.dir, { recursive: true });
  const files: Array<{ working: string; path: string }> = [];
  try {
    for (const format of formats) {
      const name = REPORT_FILE_NAMES[format];
      const file = { working: join(options.dir, `.${name}.partial`), path: join(options.dir, name) };
      files.push(file);
      await writePieces(file.working, renderReport(format, report, options.transcriptFile, options.certificate, options.harEntries), new SecretGuard(name, options.secrets ?? []), isMarkup(format));
    }
  } catch (error) {
    await Promise.all(files.map((f) => rm(f.working, { force: true })));
    await removeCreated(options.dir, created);
    throw error;
  }
  for (const file of files) await rename(file.working, file.path);
  return files.map((f) => f.path);
}
