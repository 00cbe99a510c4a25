import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Report } from '../report/report-model.ts';
import { REPORT_FILE_NAMES, REPORT_FORMATS, renderReport, type ReportFormat } from '../report/write-reports.ts';
import type { CertificatePanel } from '../report/writers/certificate-panel.ts';
import { EXCHANGES_RECORD } from './bundle-layout.ts';
import { bundledManifest } from './bundled-manifest.ts';
import { bundledReport, REPORT_NAME } from './bundled-report.ts';
import { harnessIdentity } from './harness-identity.ts';
import type { OpenedBundle } from './open-bundle.ts';
import type { StepResult, VerifyProblem } from './verify-problem.ts';

/**
 * The other reports are what the harness writes from report.json and the record: junit.xml,
 * summary.md and report.html from the report, transcript.har from the record too. Rendered again
 * and compared byte for byte, so that a summary edited to read "conformant" is caught even when
 * the manifest was rewritten to match. Only a harness of the same build renders the same bytes:
 * with another build the comparison is left out and says so.
 */

/** report.html's certificate panel, which the copy in the bundle writes from the run's paths: left out of the comparison. */
function withoutPanel(html: string): string {
  const start = html.indexOf('<section id="certificate"');
  if (start === -1) return html;
  const end = html.indexOf('</section>', start);
  return end === -1 ? html : html.slice(0, start) + html.slice(end + '</section>'.length);
}

const ANY_PANEL: CertificatePanel = { copy: 'inside', bundle: { path: '', form: 'tar.gz' }, recordSha256: '', verifyCommand: '' };

/** The line where two texts first differ, from 1. */
function firstLineDiffering(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  let line = 1;
  for (let i = 0; i < n; i += 1) {
    if (a[i] !== b[i]) return line;
    if (a[i] === 0x0a) line += 1;
  }
  return line;
}

/** A report as this harness renders it from `report` and the record file. */
export async function rendered(format: ReportFormat, report: Report, recordFile: string): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of renderReport(format, report, recordFile, format === 'html' ? ANY_PANEL : undefined)) pieces.push(Buffer.from(piece, 'utf8'));
  return Buffer.concat(pieces);
}

/** Runs `use` with the bundle's exchange record written to a file (the renderers read a file), removed afterwards. */
export async function withRecordFile<T>(bundle: OpenedBundle, use: (recordFile: string) => Promise<T>): Promise<T> {
  const work = await mkdtemp(join(tmpdir(), 'asi-verify-'));
  try {
    const recordFile = join(work, 'exchanges.jsonl');
    await writeFile(recordFile, bundle.files.get(EXCHANGES_RECORD) ?? Buffer.alloc(0));
    return await use(recordFile);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Whether the harness that made the bundle is this build: only then does it render the same bytes. */
export function sameBuild(bundle: OpenedBundle): boolean {
  const manifest = bundledManifest(bundle);
  return !('problem' in manifest) && manifest.statement.predicate.harness.packageDigest.sha256 === harnessIdentity().packageDigest;
}

export async function reportRenderings(bundle: OpenedBundle): Promise<StepResult> {
  const read = bundledReport(bundle);
  const manifest = bundledManifest(bundle);
  if ('problem' in read || 'problem' in manifest) return { checked: 'reports not compared: report.json or manifest.json cannot be read', problems: [] };
  const made = manifest.statement.predicate.harness;
  if (made.packageDigest.sha256 !== harnessIdentity().packageDigest) {
    return { checked: `junit.xml, summary.md, report.html and transcript.har not compared with their renderings: ${made.name} ${made.version} of another build wrote them`, problems: [] };
  }
  return withRecordFile(bundle, async (recordFile) => {
    const problems: VerifyProblem[] = [];
    const compared: string[] = [];
    for (const format of REPORT_FORMATS) {
      const name = REPORT_FILE_NAMES[format];
      const given = bundle.files.get(name);
      if (given === undefined) continue;
      compared.push(name);
      let want = await rendered(format, read.report, recordFile);
      let got = given;
      if (format === 'html') {
        want = Buffer.from(withoutPanel(want.toString('utf8')));
        got = Buffer.from(withoutPanel(got.toString('utf8')));
      }
      if (!want.equals(got)) {
        const from = format === 'har' ? [REPORT_NAME, EXCHANGES_RECORD] : [REPORT_NAME];
        const source = format === 'har' ? 'report.json and the record' : 'report.json';
        problems.push({ file: name, message: `is not what this harness writes from ${source} (they differ from line ${firstLineDiffering(got, want)})`, from });
      }
    }
    const how = problems.length === 0 ? 'byte for byte what this harness writes from the report and the record' : 'not all what this harness writes from the report and the record (below)';
    return { checked: `${compared.join(', ')}: ${how}`, problems };
  });
}
