import type { Exchange } from '../model/exchange.ts';
import { parseTargetJson, type ParsedJson } from '../model/json-nesting.ts';

/** A body as JSON; `tooDeep` when it nests past MAX_NESTING and so was not kept. */
export type JsonBody = ParsedJson;

/** The response body parsed as JSON, or why it cannot be (no response, cut short, not JSON, nested too deep). */
export function jsonBody(exchange: Exchange): JsonBody {
  const res = exchange.response;
  if (res === undefined) return { ok: false, why: `no response (${exchange.error?.code ?? 'unknown'}: ${exchange.error?.message ?? ''})` };
  if (res.truncated) return { ok: false, why: `body cut at ${res.body.length} characters of ${res.bodyBytes} bytes` };
  return parseTargetJson(res.body);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short description of a response for `actual`: status and the start of the body. */
export function describeResponse(exchange: Exchange): string {
  const res = exchange.response;
  if (res === undefined) return `no response (${exchange.error?.code ?? 'error'}: ${exchange.error?.message ?? ''})`;
  const body = res.body.length > 200 ? `${res.body.slice(0, 200)}…` : res.body;
  return `${res.status} ${body}`;
}
