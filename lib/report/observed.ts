import type { Exchange } from '../model/exchange.ts';
import type { ResolvedProfile } from '../profile/resolved-profile.ts';
import { routeOf } from '../checks/route-of.ts';
import { LEDGER_PATH } from '../spec-constants.ts';
import type { Observed } from './report-model.ts';

/** Most distinct codes kept per situation and fields per kind: a hostile target must not grow a report without end. */
const MAX_CODES = 20;
const MAX_FIELDS = 64;
const MAX_SITUATIONS = 200;

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Collects, exchange by exchange, the error codes and body fields a run saw (for --baseline and diff). */
export class Observer {
  readonly #codes = new Map<string, Set<string>>();
  readonly #fields = new Map<string, { bodies: number; counts: Map<string, number> }>();
  readonly #profile: Pick<ResolvedProfile, 'baseUrl' | 'messages'>;

  constructor(profile: Pick<ResolvedProfile, 'baseUrl' | 'messages'>) {
    this.#profile = profile;
  }

  #fieldsOf(kind: string, value: unknown): void {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    let entry = this.#fields.get(kind);
    if (entry === undefined) {
      if (this.#fields.size >= MAX_SITUATIONS) return;
      entry = { bodies: 0, counts: new Map() };
      this.#fields.set(kind, entry);
    }
    entry.bodies += 1;
    for (const key of Object.keys(value)) {
      if (!entry.counts.has(key) && entry.counts.size >= MAX_FIELDS) continue;
      entry.counts.set(key, (entry.counts.get(key) ?? 0) + 1);
    }
  }

  add(exchange: Exchange): void {
    const res = exchange.response;
    if (res === undefined || res.truncated) return;
    const route = routeOf(exchange, this.#profile);
    if (route === 'other') return;
    const method = exchange.request.method;
    for (const e of res.events ?? []) this.#fieldsOf(`event ${e.event} (${route})`, jsonObject(e.data));
    if (res.events !== undefined) return;
    const body = jsonObject(res.body);
    if (body === undefined) return;
    const error = body['error'];
    if (res.status >= 400 && typeof error === 'object' && error !== null) {
      const code = (error as Record<string, unknown>)['code'];
      const situation = `${method} ${route} ${res.status}`;
      if (typeof code === 'string') {
        let codes = this.#codes.get(situation);
        if (codes === undefined && this.#codes.size < MAX_SITUATIONS) this.#codes.set(situation, (codes = new Set()));
        if (codes !== undefined && codes.size < MAX_CODES) codes.add(code);
      }
      this.#fieldsOf('error', error);
      return;
    }
    if (res.status < 200 || res.status > 299) return;
    if (route === LEDGER_PATH) {
      this.#fieldsOf('ledger page', body);
      const rows = body['operations'];
      if (Array.isArray(rows)) for (const row of rows) this.#fieldsOf('ledger row', row);
      return;
    }
    this.#fieldsOf(`${method} ${route} 2xx`, body);
  }

  result(): Observed {
    const errorCodes: Observed['errorCodes'] = {};
    for (const [k, v] of [...this.#codes].sort(([a], [b]) => a.localeCompare(b))) errorCodes[k] = [...v].sort();
    const fields: Observed['fields'] = {};
    for (const [k, v] of [...this.#fields].sort(([a], [b]) => a.localeCompare(b))) {
      fields[k] = { bodies: v.bodies, counts: Object.fromEntries([...v.counts].sort(([a], [b]) => a.localeCompare(b))) };
    }
    return { errorCodes, fields };
  }
}
