import { jsonBody } from '../../checks/json-body.ts';
import { declaredStatuses, lookUpResponse, mediaEssence, requestPaths, type DescribedResponse, type ResponseLookup } from '../../checks/openapi-response-lookup.ts';
import { schemaProblems } from '../../checks/openapi-response-schema.ts';
import { LEDGER_PATH, ME_PATH } from '../../spec-constants.ts';
import { statusLabelOf, type RecordContext } from '../exchange-facts.ts';
import type { Invariant, Observation } from '../invariant.ts';
import { isJsonMediaType } from './json-bodies.ts';

const MATCHES = 'openapi/9.3/responses-match-description';
const DESCRIBED = 'openapi/9.3/responses-described';

/** `GET /credits/operations 200 application/json (getCreditsOperations)`: the response a description gives. */
function describedLabel(r: DescribedResponse, mediaKey: string): string {
  return `${r.method} ${r.path} ${r.statusKey} ${mediaKey}${r.operationId === undefined ? '' : ` (${r.operationId})`}`;
}

/**
 * What the description leaves out of a response, if anything: its path, operation or status, or,
 * when it declares content for the status, the media type the server sent. Content left
 * undeclared is no omission of a media type: the canonical description itself leaves the
 * payloads the spec does not show undeclared.
 */
function omissionOf(found: ResponseLookup, contentType: string): string | undefined {
  if (!found.described) return found.omission;
  const r = found.response;
  if (r.media === undefined || contentType === '' || r.matched !== undefined) return undefined;
  return `${r.method} ${r.path} ${r.statusKey} in the served description declares ${r.media.join(', ')}, not ${contentType}`;
}

/** The profile's GET routes and REST message routes as requests, for the cells a description declares. */
function declaredRequests(context: RecordContext): Array<{ label: string; method: string; paths: string[] }> {
  const poll = context.messages.async?.poll;
  const base = new URL(context.baseUrl).pathname.replace(/\/+$/, '');
  const request = (label: string, method: string, path: string): { label: string; method: string; paths: string[] } => ({ label, method, paths: [path, `${base}${path}`] });
  return [
    request(`GET ${ME_PATH}`, 'GET', ME_PATH),
    request(`GET ${LEDGER_PATH}`, 'GET', LEDGER_PATH),
    ...context.messages.routes.map((r) => request(`POST ${r.template}`, 'POST', r.path)),
    ...(poll === undefined ? [] : [request(`GET ${poll}`, 'GET', poll.replace('{job_id}', 'job'))]),
  ];
}

/**
 * > The machine-readable description is OpenAPI 3.1.0, served at `/openapi.json` and `/openapi.yaml`.
 * The served description is the service's own account of its responses. Every response of the run
 * whose path, method, status and media type it describes is judged against the schema it gives
 * there (MUST: a contradiction); a response on a route the spec or the profile names that it does
 * not describe is an omission (INFO), never a contradiction. HEAD has no body to judge; a body
 * cut at the harness's cap is no whole document; a body that is not JSON is the JSON rules' to judge.
 */
export const servedDescriptionInvariant: Invariant = {
  name: 'served-description',
  requirements: [MATCHES, DESCRIBED],
  expected: {
    [MATCHES]: 'every response the served description describes valid against the schema it gives for that operation, status and media type',
    [DESCRIBED]: 'every response on the routes the spec and the profile name described by the served description: its path, method, status and media type',
  },
  binds: {
    [MATCHES]: 'responses with a JSON body the served description gives a schema for',
    [DESCRIBED]: 'responses on the routes the spec and the profile name',
  },
  observe(exchange, facts, context): Observation[] {
    const served = context.servedDescription;
    const res = exchange.response;
    if (served?.available !== true || res === undefined || facts.method === 'HEAD') return [];
    const paths = requestPaths(exchange, context.baseUrl);
    if (paths.length === 0) return [];
    const contentType = mediaEssence(res.headers['content-type'] ?? '');
    const found = lookUpResponse(served.document, { method: facts.method, paths, status: res.status, contentType });
    const out: Observation[] = [];
    if (facts.kind !== 'other' && facts.routeMethod) {
      const omission = omissionOf(found, contentType);
      out.push({ requirement: DESCRIBED, problems: omission === undefined ? [] : [omission] });
    }
    const matched = found.described ? found.response.matched : undefined;
    if (!found.described || matched?.schemaPointer === undefined || !isJsonMediaType(contentType) || res.truncated || res.body === '') return out;
    const body = jsonBody(exchange);
    if (!body.ok) return out;
    const judged = schemaProblems(served.document, matched.schemaPointer, body.value);
    if (!judged.judged) return out;
    const [first, ...rest] = judged.problems;
    out.push({ requirement: MATCHES, problems: first === undefined ? [] : [`${describedLabel(found.response, matched.key)}: ${first}`, ...rest] });
    return out;
  },
  declaredCells(id, context) {
    const served = context.servedDescription;
    if (id !== MATCHES || served?.available !== true) return [];
    const cells = declaredRequests(context).flatMap(({ label, method, paths }) =>
      declaredStatuses(served.document, method, paths)
        .filter((status) => {
          const found = lookUpResponse(served.document, { method, paths, status, contentType: 'application/json' });
          return found.described && found.response.matched?.schemaPointer !== undefined;
        })
        .map((status) => `${label} ${statusLabelOf(status)}`),
    );
    return [...new Set(cells)];
  },
  whenUnjudged(id, context) {
    const served = context.servedDescription;
    if (served === undefined) return { verdict: 'not-run', note: 'this run has no served description in its record (the openapi suite fetches /openapi.json)' };
    if (!served.available) return { verdict: 'not-run', note: served.why };
    // An omission is never a contradiction: a description with no schema for any response met contradicts none.
    if (id === MATCHES) return { verdict: 'pass', note: 'the served description gives a schema for none of the JSON responses this run received: nothing in it contradicts them (openapi/9.3/responses-described notes what it leaves out)' };
    return undefined;
  },
};
