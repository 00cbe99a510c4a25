import { conversationResponseProblems } from '../../checks/conversation-response.ts';
import { mediaType } from '../../checks/conversation-rest.ts';
import { jsonBody } from '../../checks/json-body.ts';
import { NEXT_CURSOR_PRESENT, PAGE_SCHEMA, pageProblems, ROW_SCHEMA, TIMESTAMP_UTC_Z } from '../../checks/ledger-page-schema.ts';
import { LEDGER_PATH } from '../../spec-constants.ts';
import { declaredRoutes, type ExchangeFacts, type RecordContext } from '../exchange-facts.ts';
import type { Invariant, Observation } from '../invariant.ts';
import { errorCells } from './error-envelope.ts';

const RESPONSE_FIELDS = 'conversation/2.4/response-fields';
const MEDIA_TYPE = 'errors/7/json-media-type';
const PAGE_IDS = [PAGE_SCHEMA, ROW_SCHEMA, TIMESTAMP_UTC_Z, NEXT_CURSOR_PRESENT] as const;

/** `application/json` or a `+json` type (RFC 6839 §3.1). */
export function isJsonMediaType(type: string): boolean {
  return type === 'application/json' || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(type);
}

type BodyKind = 'error' | 'page' | 'conversation';

/** Which body the spec defines as JSON this response holds, if any. */
function jsonKindOf(facts: ExchangeFacts, status: number, type: string): BodyKind | undefined {
  if (facts.method === 'HEAD') return undefined;
  if (status >= 400) return 'error';
  if (facts.route === LEDGER_PATH && facts.method === 'GET' && status === 200) return 'page';
  // A 202 is the job mode's answer and an event stream the streamed one: neither is §2.4's body.
  if (facts.form === 'rest' && status >= 200 && status < 300 && status !== 202 && type !== 'text/event-stream') return 'conversation';
  return undefined;
}

/**
 * Bodies the spec defines as JSON, wherever the run met them: every ledger 200 is a
 * CreditsOperations page (§2.1, §2.2), every blocking 2xx answer to a message POST the §2.4
 * conversation response, and each of them and every error envelope (§7: "a JSON object") says
 * so in Content-Type (SHOULD: the spec never names the media type, HTTP asks a sender to label
 * its content, RFC 9110 §8.3).
 */
export const jsonBodiesInvariant: Invariant = {
  name: 'json-bodies',
  requirements: [...PAGE_IDS, RESPONSE_FIELDS, MEDIA_TYPE],
  expected: {
    [PAGE_SCHEMA]: 'every 200 of GET /credits/operations a JSON object with an `operations` array (§2.2)',
    [ROW_SCHEMA]: 'rows with string operation_uuid, operation_type, feature; number credits; object metadata; string timestamp (§2.1), on every page',
    [TIMESTAMP_UTC_Z]: 'every row timestamp full ISO 8601 in UTC with a trailing Z (§2.1), on every page',
    [NEXT_CURSOR_PRESENT]: '`next_cursor` present, a string or null (§2.2), on every page',
    [RESPONSE_FIELDS]: 'every blocking answer to a message POST a JSON object with `conversation_id` (string) and `messages` (array) (§2.4)',
    [MEDIA_TYPE]: 'a JSON media type (`application/json` or `…+json`) on every error envelope, ledger page and REST conversation response',
  },
  binds: {
    [PAGE_SCHEMA]: 'ledger 200s',
    [ROW_SCHEMA]: 'ledger pages',
    [TIMESTAMP_UTC_Z]: 'ledger pages',
    [NEXT_CURSOR_PRESENT]: 'ledger pages',
    [RESPONSE_FIELDS]: 'blocking 2xx answers to message POSTs',
    [MEDIA_TYPE]: 'responses whose body the spec defines as JSON',
  },
  observe(exchange, facts, context): Observation[] {
    const res = exchange.response;
    if (res === undefined || res.truncated) return [];
    const type = mediaType(exchange);
    const kind = jsonKindOf(facts, res.status, type);
    if (kind === undefined) return [];
    const out: Observation[] = [
      { requirement: MEDIA_TYPE, problems: isJsonMediaType(type) ? [] : [`Content-Type ${res.headers['content-type'] === undefined ? 'absent' : JSON.stringify(res.headers['content-type'])} on a JSON ${kind === 'page' ? 'ledger page' : kind === 'error' ? 'error envelope' : 'conversation response'}`] },
    ];
    if (kind === 'page') {
      const problems = pageProblems(exchange, { limit: context.limits.read, windowS: context.limits.windowS });
      out.push(...PAGE_IDS.map((requirement) => ({ requirement, problems: problems[requirement] })));
    } else if (kind === 'conversation') {
      const body = jsonBody(exchange);
      out.push({ requirement: RESPONSE_FIELDS, problems: body.ok ? conversationResponseProblems(body.value) : [body.why] });
    }
    return out;
  },
  declaredCells(id, context: RecordContext) {
    const rest = declaredRoutes(context).filter((r) => r.startsWith('POST ') && !r.includes('('));
    if (id === RESPONSE_FIELDS) return rest.map((r) => `${r} 2xx`);
    if (id === MEDIA_TYPE) return [`GET ${LEDGER_PATH} 2xx`, ...rest.map((r) => `${r} 2xx`), ...errorCells(context)];
    return [`GET ${LEDGER_PATH} 2xx`];
  },
};
