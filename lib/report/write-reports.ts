import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SecretInReportError } from '../errors.ts';
import { hideLocalPaths } from './local-paths.ts';
import type { Report } from './report-model.ts';
import { HAR_CONTENT_CHARS, transcriptHar } from './writers/har.ts';
import { reportHtml } from './writers/html.ts';
import { reportJson } from './writers/json.ts';
import { junitXml } from './writers/junit.ts';
import { summaryMarkdown } from './writers/markdown.ts';
import { escapeHtml } from './writers/text.ts';
import { readTranscript } from './writers/transcript.ts';

export type ReportFormat = 'html' | 'json' | 'junit' | 'md' | 'har';

/** Every format, in the order files are written. */
export const REPORT_FORMATS: readonly ReportFormat[] = ['json', 'junit', 'md', 'html', 'har'];

export const REPORT_FILE_NAMES: Record<ReportFormat, string> = {
  json: 'report.json',
  junit: 'junit.xml',
  md: 'summary.md',
  html: 'report.html',
  har: 'transcript.har',
};

export interface WriteReportsOptions {
  /** Folder of this run's reports (`reports/<run-id>/`); created when missing. */
  dir: string;
  formats: readonly ReportFormat[];
  /** The run's transcript (JSON lines of redacted exchanges); the HAR is built from it. */
  transcriptFile: string;
  /** Token values of the run. A file that would contain one is not written. */
  secrets?: readonly string[];
}

/**
 * The forms a secret could take in a file: as sent, escaped inside a JSON string, escaped for
 * markup, percent-encoded in a URL.
 */
function formsOf(secret: string): Array<{ form: string; text: string }> {
  const forms = [
    { form: 'as is', text: secret },
    { form: 'JSON-escaped', text: JSON.stringify(secret).slice(1, -1) },
    { form: 'markup-escaped', text: escapeHtml(secret) },
    { form: 'percent-encoded', text: encodeURIComponent(secret) },
  ];
  return forms.filter((f, i) => forms.findIndex((g) => g.text === f.text) === i);
}

/**
 * Tokens are redacted when an exchange is recorded; this is the second, independent guard at
 * the last step before a file is written.
 */
function assertNoSecret(fileName: string, content: string, secrets: readonly string[]): void {
  secrets.forEach((secret, index) => {
    if (secret.length === 0) return;
    for (const { form, text } of formsOf(secret)) {
      if (content.includes(text)) throw new SecretInReportError(fileName, index, form);
    }
  });
}

async function render(format: ReportFormat, report: Report, transcriptFile: string): Promise<string> {
  switch (format) {
    case 'json':
      return reportJson(report);
    case 'junit':
      return junitXml(report);
    case 'md':
      return summaryMarkdown(report);
    case 'html':
      return reportHtml(report);
    case 'har':
      return transcriptHar(report, await readTranscript(transcriptFile, { keepChars: HAR_CONTENT_CHARS }));
  }
}

/**
 * Writes the chosen report files of one run and returns their paths. Every file is rendered
 * and checked for secrets before the first is written: a leak leaves no partial report behind.
 */
export async function writeReports(report: Report, options: WriteReportsOptions): Promise<string[]> {
  const formats = REPORT_FORMATS.filter((f) => options.formats.includes(f));
  const rendered: Array<{ path: string; content: string }> = [];
  for (const format of formats) {
    const name = REPORT_FILE_NAMES[format];
    // Reports travel: the folders of the machine that wrote them stay behind.
    const content = hideLocalPaths(await render(format, report, options.transcriptFile));
    assertNoSecret(name, content, options.secrets ?? []);
    rendered.push({ path: join(options.dir, name), content });
  }
  await mkdir(options.dir, { recursive: true });
  for (const file of rendered) await writeFile(file.path, file.content, 'utf8');
  return rendered.map((f) => f.path);
}
