import type { Exchange } from '../model/exchange.ts';
import { isObject } from './json-body.ts';
import { valueAtPointer } from './openapi-local-ref.ts';
import { escapeRegExp, pathUnderBase } from './route-of.ts';

/** OAS 3.1 §4.8.9 Path Item Object: the fixed fields that are operations. */
const OPERATION_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/** How many `$ref` hops are followed before a chain counts as a cycle. */
const MAX_HOPS = 32;

/** A Response Object the served description gives for one response of the run. */
export interface DescribedResponse {
  /** The path template the request matched, as the document writes it (`/message-jobs/{job_id}`). */
  path: string;
  /** Upper case: `GET`. */
  method: string;
  operationId?: string;
  /** The key it is declared under: the status (`200`), its range (`4XX`) or `default`. */
  statusKey: string;
  /** The media types it declares (`content` keys), or undefined when it declares no content. */
  media?: string[];
  /** The declared media type that applies to the response's Content-Type, and where its schema sits (a URI fragment). */
  matched?: { key: string; schemaPointer?: string };
}

/** What the description says of one response: described, or what it leaves out. */
export type ResponseLookup = { described: true; response: DescribedResponse } | { described: false; omission: string };

interface PathTemplate {
  key: string;
  pattern: RegExp;
  params: number;
  literal: number;
}

/** A pointer segment as a URI fragment writes it (RFC 6901 §6): escaped, then percent-encoded. */
function segment(s: string | number): string {
  return `/${encodeURIComponent(String(s).replaceAll('~', '~0').replaceAll('/', '~1'))}`;
}

/** Follows local references from a node at `pointer`: the value reached and the fragment it sits at. */
function followRefs(document: unknown, node: unknown, pointer: string): { value: unknown; pointer: string } | undefined {
  let current = { value: node, pointer };
  for (let hop = 0; hop < MAX_HOPS; hop += 1) {
    const ref = isObject(current.value) ? current.value['$ref'] : undefined;
    if (typeof ref !== 'string') return current;
    const next = valueAtPointer(document, ref);
    if (!next.ok) return undefined;
    current = { value: next.value, pointer: ref };
  }
  return undefined;
}

const templates = new WeakMap<object, PathTemplate[]>();

/**
 * The document's path templates, most specific first: OAS 3.1 §4.8.8 "concrete (non-templated)
 * paths would be matched before their templated counterparts"; among templated ones, fewer
 * variables and longer literal text first. A `{name}` matches one whole or partial segment.
 */
function pathTemplates(paths: Record<string, unknown>): PathTemplate[] {
  const cached = templates.get(paths);
  if (cached !== undefined) return cached;
  const list = Object.keys(paths)
    .filter((key) => key.startsWith('/'))
    .map((key) => {
      const parts = key.split(/\{[^}/]*\}/);
      return { key, pattern: new RegExp(`^${parts.map(escapeRegExp).join('[^/]+')}$`), params: parts.length - 1, literal: parts.join('').length };
    })
    .sort((a, b) => a.params - b.params || b.literal - a.literal);
  templates.set(paths, list);
  return list;
}

/** The essence of a media type or range (`application/json`), lower case, parameters dropped. */
export function mediaEssence(type: string): string {
  return type.split(';')[0]!.trim().toLowerCase();
}

/** OAS 3.1 §4.8.14: "the most specific key is applicable": `text/plain` before `text/*` before `*\/*`. */
function mediaKeyFor(keys: readonly string[], type: string): string | undefined {
  const essence = mediaEssence(type);
  const range = `${essence.split('/')[0]}/*`;
  for (const wanted of [essence, range, '*/*']) {
    const key = keys.find((k) => mediaEssence(k) === wanted);
    if (key !== undefined) return key;
  }
  return undefined;
}

/** The Responses Object key that describes `status`: the code, then its range (`4XX`), then `default` (OAS 3.1 §4.8.16). */
function statusKeyFor(responses: Record<string, unknown>, status: number): string | undefined {
  const code = String(status);
  if (Object.hasOwn(responses, code)) return code;
  const range = Object.keys(responses).find((k) => k.toUpperCase() === `${code[0]}XX`);
  if (range !== undefined) return range;
  return Object.hasOwn(responses, 'default') ? 'default' : undefined;
}

export interface ResponseQuery {
  method: string;
  /** The request's path as the description's paths may write it, in order of preference (under base_url, then from the host). */
  paths: readonly string[];
  status: number;
  /** The response's Content-Type, or empty when it has none. */
  contentType: string;
}

interface FoundOperation {
  key: string;
  label: string;
  operation: Record<string, unknown>;
  /** Where the operation sits (a URI fragment). */
  pointer: string;
}

/** The operation for a method at the first path template a request path matches, or what the description leaves out. */
function findOperation(document: Record<string, unknown>, method: string, requestPaths: readonly string[]): FoundOperation | { omission: string } {
  const pathsNode = followRefs(document, document['paths'], '#/paths');
  if (pathsNode === undefined || !isObject(pathsNode.value)) return { omission: 'the served description has no paths' };
  const paths = pathsNode.value;
  const key = requestPaths.map((p) => pathTemplates(paths).find((t) => t.pattern.test(p))?.key).find((k) => k !== undefined);
  if (key === undefined) return { omission: `the served description has no path for ${requestPaths[0] ?? ''}` };
  const item = followRefs(document, paths[key], `${pathsNode.pointer}${segment(key)}`);
  const name = method.toLowerCase();
  const operation = item !== undefined && isObject(item.value) && OPERATION_METHODS.has(name) ? item.value[name] : undefined;
  const label = `${method.toUpperCase()} ${key}`;
  if (item === undefined || !isObject(operation)) return { omission: `the served description has no ${label}` };
  return { key, label, operation, pointer: `${item.pointer}${segment(name)}` };
}

function responsesOf(document: unknown, found: FoundOperation): { declared: Record<string, unknown>; pointer: string } | undefined {
  const responses = followRefs(document, found.operation['responses'], `${found.pointer}/responses`);
  return responses !== undefined && isObject(responses.value) ? { declared: responses.value, pointer: responses.pointer } : undefined;
}

/**
 * Finds the Response Object the served description gives for a response: the path template that
 * matches the request path, the operation of its method, the response for its status, and the
 * media type of its Content-Type. Local references only; the description is never changed.
 */
export function lookUpResponse(document: Record<string, unknown>, query: ResponseQuery): ResponseLookup {
  const found = findOperation(document, query.method, query.paths);
  if ('omission' in found) return { described: false, omission: found.omission };
  const responses = responsesOf(document, found);
  const statusKey = responses === undefined ? undefined : statusKeyFor(responses.declared, query.status);
  if (responses === undefined || statusKey === undefined) {
    return { described: false, omission: `${found.label} in the served description declares no ${query.status} response (nor ${String(query.status)[0]}XX, nor default)` };
  }
  const response = followRefs(document, responses.declared[statusKey], `${responses.pointer}${segment(statusKey)}`);
  const described: DescribedResponse = { path: found.key, method: query.method.toUpperCase(), statusKey };
  if (typeof found.operation['operationId'] === 'string') described.operationId = found.operation['operationId'];
  const content = response !== undefined && isObject(response.value) ? response.value['content'] : undefined;
  if (response === undefined || !isObject(content) || Object.keys(content).length === 0) return { described: true, response: described };
  described.media = Object.keys(content);
  const mediaKey = query.contentType === '' ? undefined : mediaKeyFor(described.media, query.contentType);
  if (mediaKey !== undefined) {
    const media = content[mediaKey];
    described.matched = isObject(media) && 'schema' in media ? { key: mediaKey, schemaPointer: `${response.pointer}/content${segment(mediaKey)}/schema` } : { key: mediaKey };
  }
  return { described: true, response: described };
}

/** The status codes (not ranges, not `default`) an operation declares: none when the description has no such operation. */
export function declaredStatuses(document: Record<string, unknown>, method: string, requestPaths: readonly string[]): number[] {
  const found = findOperation(document, method, requestPaths);
  if ('omission' in found) return [];
  const responses = responsesOf(document, found);
  return Object.keys(responses?.declared ?? {})
    .filter((k) => /^[1-5]\d\d$/.test(k))
    .map(Number);
}

/** The request's path as a description may write it: under base_url first, then from the host (servers that stop at the host). */
export function requestPaths(exchange: Exchange, baseUrl: string): string[] {
  let request: URL;
  try {
    request = new URL(exchange.request.url);
    if (request.origin !== new URL(baseUrl).origin) return [];
  } catch {
    return [];
  }
  const under = pathUnderBase(exchange, baseUrl);
  return [...new Set([...(under === undefined ? [] : [under]), request.pathname])];
}
