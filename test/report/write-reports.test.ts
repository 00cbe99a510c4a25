import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { SecretInReportError } from '../../lib/errors.ts';
import type { Report } from '../../lib/report/report-model.ts';
import { SecretGuard } from '../../lib/report/secret-guard.ts';
import { REPORT_FILE_NAMES, REPORT_FORMATS, writePieces, writeReports } from '../../lib/report/write-reports.ts';
import { TOKEN_VALUE, getExchange, sampleReport, sampleTranscript, transcriptJsonl } from './report-fixtures.ts';

let work: string;
let transcriptFile: string;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'asi-report-'));
  transcriptFile = join(work, 'transcript.jsonl');
  // The last line is cut off, as a run killed mid-write leaves it.
  await writeFile(transcriptFile, `${transcriptJsonl(sampleTranscript())}{"seq":7,"request":{"meth`);
});

afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

/** The sample report with a token value the redaction step missed: in a failure's text and a response body. */
function leakyReport(value: string): Report {
  const report = sampleReport();
  const finding = report.results[1]!.findings[0]!;
  const ex = getExchange(8);
  finding.actual = `${value} echoed by the server`;
  finding.exchanges.push({ ...ex, response: { ...ex.response!, body: `token=${value}` } });
  return report;
}

/** The sample report with a secret percent-encoded in a request URL. */
function leakyUrlReport(value: string): Report {
  const report = sampleReport();
  const ex = getExchange(8);
  report.results[1]!.findings[0]!.exchanges.push({ ...ex, request: { ...ex.request, url: `${ex.request.url}&t=${encodeURIComponent(value)}` } });
  return report;
}

describe('writeReports', () => {
  test('writes every format into the run folder and returns the paths', async () => {
    const dir = join(work, 'reports', 'run-1');
    const paths = await writeReports(sampleReport(), { dir, formats: [...REPORT_FORMATS], transcriptFile });
    expect(paths).toEqual(['report.json', 'junit.xml', 'summary.md', 'report.html', 'transcript.har'].map((n) => join(dir, n)));
    expect((await readdir(dir)).sort()).toEqual(Object.values(REPORT_FILE_NAMES).sort());
    const har = JSON.parse(await readFile(join(dir, 'transcript.har'), 'utf8')) as { log: { version: string; comment: string; entries: unknown[] } };
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries).toHaveLength(6);
    expect(har.log.comment).toContain('1 transcript lines could not be read');
  });

  test('writes only the chosen formats, in a fixed order', async () => {
    const paths = await writeReports(sampleReport(), { dir: work, formats: ['html', 'md'], transcriptFile });
    expect(paths).toEqual([join(work, 'summary.md'), join(work, 'report.html')]);
  });

  test('a run without a transcript writes a HAR without entries', async () => {
    await writeReports(sampleReport(), { dir: work, formats: ['har'], transcriptFile: join(work, 'none.jsonl') });
    const har = JSON.parse(await readFile(join(work, 'transcript.har'), 'utf8')) as { log: { entries: unknown[] } };
    expect(har.log.entries).toEqual([]);
  });

  test('no file contains a token value passed as a secret', async () => {
    const dir = join(work, 'out');
    const paths = await writeReports(sampleReport(), { dir, formats: [...REPORT_FORMATS], transcriptFile, secrets: [TOKEN_VALUE, 'asi_live_ffff'] });
    expect(paths).toHaveLength(5);
    for (const path of paths) expect(await readFile(path, 'utf8')).not.toContain(TOKEN_VALUE);
  });

  test.each(['json', 'junit', 'md', 'html'] as const)('refuses to write %s when the report carries a secret, and writes nothing', async (format) => {
    const dir = join(work, 'leak');
    const write = writeReports(leakyReport(TOKEN_VALUE), { dir, formats: [format, 'har'], transcriptFile, secrets: [TOKEN_VALUE] });
    await expect(write).rejects.toBeInstanceOf(SecretInReportError);
    await expect(readdir(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('refuses to write the HAR when the transcript carries a secret; the error never shows the value', async () => {
    const [first] = sampleTranscript();
    await writeFile(transcriptFile, transcriptJsonl([{ ...first!, request: { ...first!.request, headers: { authorization: `Bearer ${TOKEN_VALUE}` } } }]));
    const error = await writeReports(sampleReport(), { dir: work, formats: ['json', 'har'], transcriptFile, secrets: ['asi_live_unused', TOKEN_VALUE] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretInReportError);
    expect((error as SecretInReportError).message).toBe('transcript.har would contain secret #2 (as is); no report was written');
    expect((error as SecretInReportError).code).toBe('ASI_SECRET_IN_REPORT');
    expect(await readdir(work)).toEqual(['transcript.jsonl']);
  });

  test.each([
    ['escaped in JSON', 'tok"en\\1', 'json', 'JSON-escaped', leakyReport],
    ['escaped as markup', 'tok<en>&1', 'html', 'markup-escaped', leakyReport],
    ['percent-encoded in a URL', 'tok en/1', 'md', 'percent-encoded', leakyUrlReport],
  ] as const)('finds a secret %s', async (_how, secret, format, form, leaky) => {
    const error = await writeReports(leaky(secret), { dir: work, formats: [format], transcriptFile, secrets: [secret] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretInReportError);
    expect((error as Error).message).toBe(`${REPORT_FILE_NAMES[format]} would contain secret #1 (${form}); no report was written`);
  });
});

describe('writePieces', () => {
  test('pieces held and written a megabyte at a time: the file is every piece in order, across the boundary', async () => {
    const pieces = Array.from({ length: 3_000 }, (_, i) => `${String(i).padStart(5, '0')}:${'é'.repeat(400)}\n`);
    const path = join(work, 'pieces.txt');
    await writePieces(path, pieces, new SecretGuard('pieces.txt', [TOKEN_VALUE]));
    expect(await readFile(path, 'utf8')).toBe(pieces.join(''));
  });

  test('a piece with a secret stops the file before any later piece is written', async () => {
    const path = join(work, 'leak.txt');
    const pieces = ['a'.repeat(2_000_000), `token=${TOKEN_VALUE}`, 'later'];
    await expect(writePieces(path, pieces, new SecretGuard('leak.txt', [TOKEN_VALUE]))).rejects.toThrow(SecretInReportError);
    expect(await readFile(path, 'utf8')).not.toContain('later');
  });
});
