import type { InputDomain } from '../domains/input-domain.ts';
import { REQUEST_HEADER_DOMAINS } from '../domains/request-header-domains.ts';

/**
 * The exchange matrix's Accept forms, read off the input domains (lib/domains/request-header-domains.ts)
 * so that the domain and the matrix name one list: each edge of `header:Accept`, then each value
 * of the message POST's `body:stream` field but `absent` (a POST without Accept and without the
 * field is the Accept form `absent`).
 */
export interface AcceptForm {
  /** The form's name in the matrix: the edge's words (`a list`), or the media range it quotes (`application/json`). */
  name: string;
  /** The Accept header it sends, or undefined for none. */
  accept?: string;
  /** The `stream` body field it sends on a message POST, or undefined for none. */
  stream?: boolean;
}

function domain(id: string): InputDomain {
  const found = REQUEST_HEADER_DOMAINS.find((d) => d.id === id);
  if (found === undefined) throw new Error(`no input domain ${id} in lib/domains/request-header-domains.ts`);
  return found;
}

/**
 * One Accept edge as a form: `absent`; a quoted media range, perhaps glossed (`` `application/json` ``), named
 * by the range; words with the range in brackets (`` a list (`application/json, text/event-stream`) ``),
 * named by the words.
 */
function acceptFormOfEdge(edge: string): AcceptForm {
  if (edge === 'absent') return { name: edge };
  const quoted = /^`([^`]+)`/.exec(edge);
  if (quoted !== null) return { name: quoted[1]!, accept: quoted[1]! };
  const worded = /^(.+?) \(`([^`]+)`\)$/.exec(edge);
  if (worded !== null) return { name: worded[1]!, accept: worded[2]! };
  throw new Error(`the header:Accept edge "${edge}" names no media range`);
}

function streamForms(): AcceptForm[] {
  return domain('body:stream')
    .edges.filter((e) => e === 'true' || e === 'false')
    .map((e) => ({ name: `stream: ${e}`, stream: e === 'true' }));
}

/** Every Accept form of the matrix, in the domains' order. */
export const ACCEPT_FORM_LIST: readonly AcceptForm[] = [...domain('header:Accept').edges.map(acceptFormOfEdge), ...streamForms()];

/** The forms' names: the values of the matrix's `accept` dimension. */
export const ACCEPT_FORMS: readonly string[] = ACCEPT_FORM_LIST.map((f) => f.name);

/** The forms that set the message POST's `stream` field (on a message POST only). */
export const STREAM_FIELD_FORMS: ReadonlySet<string> = new Set(ACCEPT_FORM_LIST.filter((f) => f.stream !== undefined).map((f) => f.name));

/**
 * Whether a form asks a message POST for an event stream: `stream: true`, or an Accept header that
 * names `text/event-stream` (a server may still choose JSON for a list; the client is ready for either).
 */
export function asksForStream(form: AcceptForm | undefined): boolean {
  return form?.stream === true || /event-stream/.test(form?.accept ?? '');
}

/** The form of that name, if the matrix has one. */
export function acceptFormNamed(name: string): AcceptForm | undefined {
  return ACCEPT_FORM_LIST.find((f) => f.name === name);
}

/** What kind of media range list an Accept header is: one range, or one with a q-value, several, a parameter. */
function shapeOf(accept: string): 'one' | 'q-value' | 'list' | 'parameter' {
  if (/;\s*q=/.test(accept)) return 'q-value';
  if (accept.includes(',')) return 'list';
  return accept.includes(';') ? 'parameter' : 'one';
}

/**
 * The form of a non-empty Accept header: the form that sends exactly it, else the form whose
 * header has its shape (a list, a parameter, a q-value), else `other`.
 */
export function acceptFormOfHeader(accept: string): string {
  const lower = accept.toLowerCase();
  const exact = ACCEPT_FORM_LIST.find((f) => f.accept?.toLowerCase() === lower);
  if (exact !== undefined) return exact.name;
  const shape = shapeOf(lower);
  const alike = shape === 'one' ? undefined : ACCEPT_FORM_LIST.find((f) => f.accept !== undefined && shapeOf(f.accept.toLowerCase()) === shape);
  return alike?.name ?? 'other';
}
