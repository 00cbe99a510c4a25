import type { Exchange } from '../model/exchange.ts';
import { pass, type Finding } from '../model/finding.ts';
import { judged } from './judged.ts';

export const FRAMING = 'conversation/6/framing';

export type FramingNoteKind =
  | 'mixed-line-ends'
  | 'unknown-field'
  | 'invalid-retry'
  | 'field-without-colon'
  | 'padded-event-name'
  | 'nul-character'
  | 'unterminated-event';

/** A framing oddity: legal or ignorable by the grammar, but worth a line in the report. */
export interface FramingNote {
  kind: FramingNoteKind;
  /** 1-based line number. */
  line?: number;
  detail: string;
}

export interface FramingLint {
  lineEnds: { lf: number; crlf: number; cr: number };
  comments: number;
  /** Lines of the fields the grammar knows, by name. */
  fields: Record<'event' | 'data' | 'id' | 'retry', number>;
  notes: FramingNote[];
}

const KNOWN_FIELDS = new Set(['event', 'data', 'id', 'retry']);
const MAX_NOTES_PER_KIND = 3;

/**
 * Lints the raw text of an event stream against the HTML Standard's event-stream grammar
 * (9.2.5-9.2.6). Nothing here is a violation: every form below is legal or is ignored by
 * conforming parsers. They are the forms a hand-written client is likely to get wrong, so the
 * report mentions them (INFO).
 */
export function lintEventStream(text: string): FramingLint {
  const lint: FramingLint = { lineEnds: { lf: 0, crlf: 0, cr: 0 }, comments: 0, fields: { event: 0, data: 0, id: 0, retry: 0 }, notes: [] };
  const counts = new Map<FramingNoteKind, number>();
  const note = (kind: FramingNoteKind, line: number, detail: string): void => {
    const n = (counts.get(kind) ?? 0) + 1;
    counts.set(kind, n);
    if (n <= MAX_NOTES_PER_KIND) lint.notes.push({ kind, line, detail });
  };
  // > end-of-line = ( cr lf / cr / lf )
  const lineRe = /([^\r\n]*)(\r\n|\r|\n|$)/g;
  let lineNo = 0;
  let pendingFields = false;
  for (let m = lineRe.exec(text); m !== null; m = lineRe.exec(text)) {
    const [, line = '', ending = ''] = m;
    if (ending === '' && line === '') break;
    lineNo += 1;
    if (ending === '\n') lint.lineEnds.lf += 1;
    else if (ending === '\r\n') lint.lineEnds.crlf += 1;
    else if (ending === '\r') lint.lineEnds.cr += 1;
    if (line.includes('\u0000')) note('nul-character', lineNo, 'a NUL character (U+0000) in the line');
    if (line === '') {
      pendingFields = false;
      continue;
    }
    if (line.startsWith(':')) {
      lint.comments += 1;
      continue;
    }
    const colon = line.indexOf(':');
    // > If the line contains a U+003A COLON character ... Otherwise, the string is not empty but does
    // > not contain a U+003A COLON character: process the field using the whole line as the field name
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    // A `retry` field takes effect at once; every other field waits for the blank line that dispatches.
    if (field !== 'retry') pendingFields = true;
    if (value.startsWith(' ')) value = value.slice(1);
    if (colon === -1) note('field-without-colon', lineNo, `field line ${JSON.stringify(line.slice(0, 40))} has no colon (its value is empty)`);
    if (!KNOWN_FIELDS.has(field)) {
      note('unknown-field', lineNo, `unknown field ${JSON.stringify(field.slice(0, 40))} (parsers ignore it)`);
    } else {
      lint.fields[field as keyof FramingLint['fields']] += 1;
      // > If the field value consists of only ASCII digits, then interpret ... Otherwise, ignore the field.
      if (field === 'retry' && !/^[0-9]+$/.test(value)) note('invalid-retry', lineNo, `retry value ${JSON.stringify(value)} is not all digits (parsers ignore it)`);
      if (field === 'event' && value !== value.trim()) note('padded-event-name', lineNo, `event name ${JSON.stringify(value)} carries white space, which is part of the name`);
    }
    if (ending === '') {
      note('unterminated-event', lineNo, 'the stream ends inside an event: parsers discard an event not followed by a blank line');
      pendingFields = false;
    }
  }
  if (pendingFields) note('unterminated-event', lineNo, 'the last event is not followed by a blank line: parsers discard it');
  const kinds = Object.values(lint.lineEnds).filter((n) => n > 0).length;
  if (kinds > 1) {
    const { lf, crlf, cr } = lint.lineEnds;
    lint.notes.unshift({ kind: 'mixed-line-ends', detail: `mixed line ends: ${lf} LF, ${crlf} CRLF, ${cr} CR` });
  }
  return lint;
}

function summary(lint: FramingLint): string {
  const ends = Object.entries(lint.lineEnds)
    .filter(([, n]) => n > 0)
    .map(([k]) => k.toUpperCase())
    .join('+');
  const f = lint.fields;
  return `line ends ${ends === '' ? 'none' : ends}; ${f.event} event, ${f.data} data, ${f.id} id, ${f.retry} retry lines; ${lint.comments} comments`;
}

/**
 * The INFO finding on a stream's framing: a pass carrying a summary, or a warning that lists the
 * oddities. Never a failure: the grammar allows or ignores every form it reports.
 */
export const framingFinding = judged('sse-framing-lint/framingFinding', function framingFinding(exchange: Exchange): Finding {
  const text = exchange.response?.body ?? '';
  const lint = lintEventStream(text);
  // A stream cut by the read budget ends mid-event by the harness's doing, not the server's.
  if (exchange.response?.streamClosed !== true) lint.notes = lint.notes.filter((n) => n.kind !== 'unterminated-event');
  if (lint.notes.length === 0) return pass(FRAMING, [exchange], summary(lint));
  const notes = lint.notes.map((n) => (n.line === undefined ? n.detail : `line ${n.line}: ${n.detail}`)).join('; ');
  return { requirement: FRAMING, verdict: 'warn', note: `${summary(lint)}. ${notes}`, exchanges: [exchange] };
});
