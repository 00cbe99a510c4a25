import { OAS_DIALECTS } from '../contract/oas-document-schema.ts';
import type { Exchange } from '../model/exchange.ts';
import { DOCUMENT_PATHS, readServedDocument } from './openapi-documents.ts';
import { pathUnderBase } from './route-of.ts';

/**
 * The served description as the run-wide rules read it: the document the run's GET /openapi.json
 * answered with 200, or why the run has none they can use. Plain data, taken from the record.
 */
export type ServedDescription = { available: true; document: Record<string, unknown>; seq: number } | { available: false; why: string };

/** Substring of a transcript line that may hold the document's fetch: lets a reader skip the rest unparsed. */
export const SERVED_DESCRIPTION_MENTION = DOCUMENT_PATHS.json;

/** A GET of /openapi.json under base_url: where the run's served description comes from. */
function isServedDescriptionFetch(exchange: Exchange, baseUrl: string): boolean {
  return exchange.request.method.toUpperCase() === 'GET' && pathUnderBase(exchange, baseUrl) === DOCUMENT_PATHS.json;
}

/**
 * Why a parsed document's Schema Objects are not JSON Schema 2020-12, or undefined when they are:
 * OAS 3.1 documents in the base dialect. An OAS 3.0 document's schemas (draft-04's boolean
 * `exclusiveMaximum`, no type lists) read as 2020-12 would report what its own version allows.
 */
function dialectProblem(document: Record<string, unknown>): string | undefined {
  const version = document['openapi'];
  if (typeof version !== 'string' || !/^3\.1\.\d+$/.test(version)) {
    return `the served ${DOCUMENT_PATHS.json} declares openapi ${JSON.stringify(version) ?? 'absent'}, so its schemas are not JSON Schema 2020-12 (openapi/9.3/version-3.1.0 judges the version)`;
  }
  const dialect = document['jsonSchemaDialect'];
  if (dialect !== undefined && !OAS_DIALECTS.has(String(dialect))) return `the served ${DOCUMENT_PATHS.json} chooses the schema dialect ${JSON.stringify(dialect)}, which the harness does not evaluate`;
  return undefined;
}

/**
 * Whether an exchange holds a served description the record must keep whole: a GET of
 * /openapi.json answered 200 with a body the client did not cut, that parses as a JSON object.
 */
export function holdsServedDescription(exchange: Exchange, baseUrl: string): boolean {
  return isServedDescriptionFetch(exchange, baseUrl) && exchange.response?.status === 200 && !exchange.response.truncated && readServedDocument('json', exchange).parsed.ok;
}

/**
 * Finds the served description in a run's record, one exchange at a time: the first GET of
 * /openapi.json under base_url answered 200 (the openapi suite fetches it in every full run).
 */
export class ServedDescriptionFinder {
  readonly #baseUrl: string;
  #found: ServedDescription | undefined;
  /** An unsuccessful fetch, kept to say why there is no document. */
  #refused: string | undefined;

  constructor(baseUrl: string) {
    this.#baseUrl = baseUrl;
  }

  /** Reads one exchange; true once the document is found (later exchanges change nothing). */
  add(exchange: Exchange): boolean {
    if (this.#found !== undefined) return true;
    if (!isServedDescriptionFetch(exchange, this.#baseUrl)) return false;
    const served = readServedDocument('json', exchange);
    if (exchange.response?.status !== 200) {
      this.#refused ??= `GET ${DOCUMENT_PATHS.json} ${served.parsed.ok ? '' : served.parsed.why}`.trim();
      return false;
    }
    if (!served.parsed.ok) this.#found = { available: false, why: `the served ${DOCUMENT_PATHS.json} cannot be read: ${served.parsed.why}` };
    else {
      const problem = dialectProblem(served.parsed.value);
      this.#found = problem === undefined ? { available: true, document: served.parsed.value, seq: exchange.seq } : { available: false, why: problem };
    }
    return true;
  }

  result(): ServedDescription {
    if (this.#found !== undefined) return this.#found;
    if (this.#refused !== undefined) return { available: false, why: `this run has no served description: ${this.#refused}` };
    return { available: false, why: `this run did not fetch ${DOCUMENT_PATHS.json} (the openapi suite does)` };
  }
}

/** The served description a list of exchanges holds (tests, and re-derivation from a bundle). */
export function servedDescriptionOf(exchanges: Iterable<Exchange>, baseUrl: string): ServedDescription {
  const finder = new ServedDescriptionFinder(baseUrl);
  for (const e of exchanges) if (finder.add(e)) break;
  return finder.result();
}
