import { parse as parseYaml } from 'yaml';
import type { Exchange } from '../model/exchange.ts';
import { fail, pass, type Finding } from '../model/finding.ts';
import { describeResponse, isObject, jsonBody } from './json-body.ts';
import { judged } from './judged.ts';

export type DocumentFormat = 'json' | 'yaml';

/** One served OpenAPI document: the exchange that fetched it and what its body parsed to. */
export interface ServedDocument {
  format: DocumentFormat;
  exchange: Exchange;
  parsed: { ok: true; value: Record<string, unknown> } | { ok: false; why: string };
}

/** The path each format is served at (§9.3). */
export const DOCUMENT_PATHS: Record<DocumentFormat, string> = { json: '/openapi.json', yaml: '/openapi.yaml' };

function yamlBody(exchange: Exchange): { ok: true; value: unknown } | { ok: false; why: string } {
  const res = exchange.response;
  if (res === undefined) return { ok: false, why: `no response (${exchange.error?.code ?? 'unknown'}: ${exchange.error?.message ?? ''})` };
  if (res.truncated) return { ok: false, why: `body cut at ${res.body.length} characters of ${res.bodyBytes} bytes` };
  try {
    // YAML 1.2 core schema; duplicate keys and several documents in one stream are errors.
    return { ok: true, value: parseYaml(res.body, { uniqueKeys: true, prettyErrors: false }) as unknown };
  } catch (err) {
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
  if (!isObject(body.value)) return { format, exchange, parsed: { ok: false, why: `body parses to ${JSON.stringify(body.value)?.slice(0, 80)}, not an object` } };
  return { format, exchange, parsed: { ok: true, value: body.value } };
}

/** json-served / yaml-served: 200 without a token and a body that parses. */
export const servedFinding = judged('openapi-documents/servedFinding', function servedFinding(requirement: string, document: ServedDocument): Finding {
  const ex = [document.exchange];
  if (document.parsed.ok) return pass(requirement, ex);
  return fail(requirement, `GET ${DOCUMENT_PATHS[document.format]} without a token: 200 and a ${document.format.toUpperCase()} object`, document.parsed.why, ex);
});

/** The documents that parsed, in the order given. */
export function parsedDocuments(documents: readonly ServedDocument[]): Array<ServedDocument & { parsed: { ok: true; value: Record<string, unknown> } }> {
  return documents.filter((d): d is ServedDocument & { parsed: { ok: true; value: Record<string, unknown> } } => d.parsed.ok);
}
