import { REPORT_FILE_NAMES } from '../report/write-reports.ts';
import { EXCHANGES_RECORD } from './bundle-layout.ts';
import { bundledReport } from './bundled-report.ts';
import type { OpenedBundle } from './open-bundle.ts';
import { rendered, sameBuild, withRecordFile } from './report-renderings.ts';

/**
 * Where an edited exchange record was edited. The manifest holds one digest for the whole
 * record, but transcript.har was written from the record as the run wrote it and holds every
 * exchange by its sequence number: rendered again from the edited record, the HAR entries that
 * differ name the exchanges that changed, and the record's lines hold them. Only when
 * transcript.har is itself untouched and this is the build that wrote it (else every entry may
 * differ for another reason).
 */

/** The lines named at most; the rest are counted. */
const NAMED = 3;

interface HarEntry {
  request?: { method?: unknown; url?: unknown };
  _asi?: { seq?: unknown };
}

function entriesBySeq(har: Buffer): Map<number, { text: string; entry: HarEntry }> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(har.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
  const entries = (value as { log?: { entries?: unknown } } | null)?.log?.entries;
  if (!Array.isArray(entries)) return undefined;
  const bySeq = new Map<number, { text: string; entry: HarEntry }>();
  for (const e of entries as HarEntry[]) {
    const seq = e?._asi?.seq;
    if (typeof seq === 'number') bySeq.set(seq, { text: JSON.stringify(e), entry: e });
  }
  return bySeq;
}

function requestOf(entry: HarEntry | undefined): string {
  const method = entry?.request?.method;
  const url = entry?.request?.url;
  return typeof method === 'string' && typeof url === 'string' ? `${method} ${url}` : 'request unknown';
}

/**
 * The record's lines that differ from what the run recorded, as one phrase (`line 7 (exchange #7,
 * GET http://…/v1/ledger) is not as transcript.har holds it`), or undefined when it cannot be told.
 */
export async function recordEdits(bundle: OpenedBundle): Promise<string | undefined> {
  const har = bundle.files.get(REPORT_FILE_NAMES.har);
  const read = bundledReport(bundle);
  const lines = bundle.recordLines(EXCHANGES_RECORD);
  if (har === undefined || 'problem' in read || lines === undefined || !sameBuild(bundle)) return undefined;
  const had = entriesBySeq(har);
  const now = entriesBySeq(await withRecordFile(bundle, (file) => rendered('har', read.report, file)));
  if (had === undefined || now === undefined) return undefined;
  const lineOf = new Map<number, number>();
  for (const l of lines) {
    const seq = (l.value as { seq?: unknown } | undefined)?.seq;
    if (typeof seq === 'number' && !lineOf.has(seq)) lineOf.set(seq, l.line);
  }
  const named: string[] = [];
  for (const l of lines) if (l.error !== undefined) named.push(`line ${l.line} (${l.error})`);
  const seqs = [...new Set([...had.keys(), ...now.keys()])].sort((a, b) => a - b);
  for (const seq of seqs) {
    const before = had.get(seq);
    const after = now.get(seq);
    if (before?.text === after?.text) continue;
    const line = lineOf.get(seq);
    if (after === undefined || line === undefined) named.push(`exchange #${seq} (${requestOf(before?.entry)}) is gone from the record`);
    else if (before === undefined) named.push(`line ${line} (exchange #${seq}, ${requestOf(after.entry)}) was not recorded by the run`);
    else named.push(`line ${line} (exchange #${seq}, ${requestOf(before.entry)})`);
  }
  if (named.length === 0) return undefined;
  const more = named.length > NAMED ? `, and ${named.length - NAMED} more` : '';
  return `${named.slice(0, NAMED).join(', ')}${more} differ${named.length === 1 ? 's' : ''} from the exchanges transcript.har holds as the run recorded them`;
}
