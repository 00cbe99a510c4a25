import { parse as parseYaml } from 'yaml';
import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { MAX_NESTING, nestsTooDeep, TOO_DEEP } from '../model/json-nesting.ts';
import { describeResponse, isObject, jsonBody } from './json-body.ts';
import { judged } from './judged.ts';

export type DocumentFormat = 'json' | 'yaml';

/** One served OpenAPI document: the exchange that fetched it and what its body parsed to. */
export interface ServedDocument {
  format: DocumentFormat;
  exchange: Exchange;
  /** `tooDeep`: the body nests past MAX_NESTING, so the document was not kept and cannot be judged. */
  parsed: { ok: true; value: Record<string, unknown> } | { ok: false; why: string; tooDeep?: true };
}

/** The path each format is served at (§9.3). */
export const DOCUMENT_PATHS: Record<DocumentFormat, string> = { json: '/openapi.json', yaml: '/openapi.yaml' };

/**
 * An upper bound of how deep a YAML text nests, read without parsing: open flow brackets outside
 * quotes and comments, and, on each line, the indentation plus the compact `- ` entries it opens.
 * The parser recurses once per level, and near the end of the stack it may abort the process
 * rather than throw, so a text that could nest far past MAX_NESTING is never handed to it.
 */
export function yamlNestingBound(text: string): number {
  let deepest = 0;
  let flow = 0;
  let quote: string | undefined;
  let lineStart = true;
  let lineDepth = 0;
  /** The last character outside blanks: a quote opens a scalar only where one may start. */
  let previous = '\n';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (c === '\n') {
      // A bound, not a parse: a quoted scalar is taken to end with its line.
      [lineStart, lineDepth, quote, previous] = [true, 0, undefined, '\n'];
      continue;
    }
    if (quote !== undefined) {
      if (c === '\\' && quote === '"') i += 1;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (lineStart && (c === ' ' || ((c === '-' || c === '?') && (text[i + 1] === ' ' || text[i + 1] === '\n')))) {
      lineDepth += 1;
      deepest = Math.max(deepest, lineDepth + flow);
      continue;
    }
    lineStart = false;
    if ((c === '"' || c === "'") && ':-?[{,\n'.includes(previous)) quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end - 1;
    } else if (c === '[' || c === '{') deepest = Math.max(deepest, lineDepth + (flow += 1));
    else if ((c === ']' || c === '}') && flow > 0) flow -= 1;
    if (c !== ' ' && c !== '\t') previous = c;
  }
  return deepest;
}

/** Far above what a YAML text nesting MAX_NESTING levels can show in yamlNestingBound (indentation counts every column). */
const YAML_NESTING_BOUND = MAX_NESTING * 16;

function yamlBody(exchange: Exchange): { ok: true; value: unknown } | { ok: false; why: string; tooDeep?: true } {
  const res = exchange.response;
  if (res === undefined) return { ok: false, why: `no response (${exchange.error?.code ?? 'unknown'}: ${exchange.error?.message ?? ''})` };
  if (res.truncated) return { ok: false, why: `body cut at ${res.body.length} characters of ${res.bodyBytes} bytes` };
  if (yamlNestingBound(res.body) > YAML_NESTING_BOUND) return { ok: false, why: `body ${TOO_DEEP}`, tooDeep: true };
  try {
    // YAML 1.2 core schema; duplicate keys and several documents in one stream are errors.
    const value = parseYaml(res.body, { uniqueKeys: true, prettyErrors: false }) as unknown;
    return nestsTooDeep(value) ? { ok: false, why: `body ${TOO_DEEP}`, tooDeep: true } : { ok: true, value };
  } catch (err) {
    // The parser recurses: a deep enough text overflows its stack, which it reports as a parse error.
    if (err instanceof RangeError || (err instanceof Error && /call stack/i.test(err.message))) return { ok: false, why: `body ${TOO_DEEP} (the YAML parser ran out of stack)`, tooDeep: true };
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return { ok: false, why: `body is not YAML: ${why}` };
  }
}

/**
 * The document a GET of /openapi.json or /openapi.yaml returned: it must answer 200 and its body
 * must parse, as JSON or YAML, to an object (an OpenAPI document is an object).
 */
export function readServedDocument(format: DocumentFormat, exchange: Exchange): ServedDocument {
  const status = exchange.response?.status;
  if (status !== 200) return { format, exchange, parsed: { ok: false, why: `answered ${describeResponse(exchange)}` } };
  const body = format === 'json' ? jsonBody(exchange) : yamlBody(exchange);
  if (!body.ok) return { format, exchange, parsed: body };
  if (!isObject(body.value)) return { format, exchange, parsed: { ok: false, why: `body parses to ${JSON.stringify(body.value)?.slice(0, 80) ?? 'nothing'}, not an object` } };
  return { format, exchange, parsed: { ok: true, value: body.value } };
}

/** json-served / yaml-served: 200 without a token and a body that parses. */
export const servedFinding = judged('openapi-documents/servedFinding', function servedFinding(requirement: string, document: ServedDocument): Finding {
  const ex = [document.exchange];
  if (document.parsed.ok) return pass(requirement, ex);
  // The spec sets no depth; a document too deep to walk is not judged either way (ambiguity register).
  if (document.parsed.tooDeep === true) return inconclusive(requirement, `GET ${DOCUMENT_PATHS[document.format]} answered 200, but the document ${document.parsed.why.replace(/^body /, '')}`, ex);
  return fail(requirement, `GET ${DOCUMENT_PATHS[document.format]} without a token: 200 and a ${document.format.toUpperCase()} object`, document.parsed.why, ex);
});

/** The documents that parsed, in the order given. */
export function parsedDocuments(documents: readonly ServedDocument[]): Array<ServedDocument & { parsed: { ok: true; value: Record<string, unknown> } }> {
  return documents.filter((d): d is ServedDocument & { parsed: { ok: true; value: Record<string, unknown> } } => d.parsed.ok);
}
