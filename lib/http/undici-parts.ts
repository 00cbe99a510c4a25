import { createRequire } from 'node:module';
import type * as Undici from 'undici';

/**
 * The parts of undici the harness uses, loaded without the rest. undici's entry loads every
 * dispatcher, fetch, WebSocket, the mocks and the caches: about 140 CPU ms in each new worker
 * thread and 90 ms in the main one, paid by every run twice. The few files below cost a third of
 * that. The version is pinned (package.json), and test/http/undici-parts.test.ts holds these
 * exports to the entry's own.
 */
const load = createRequire(import.meta.url);

/** What undici's entry adds to every dispatcher: `request`, `stream`, `connect`... (its index.js does the same). */
const DispatcherClass = load('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
Object.assign(DispatcherClass.prototype, load('undici/lib/api/index.js') as object);

// Typed as the entry's exports, which are these very modules.
export const Agent = load('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
export const EnvHttpProxyAgent = load('undici/lib/dispatcher/env-http-proxy-agent.js') as typeof Undici.EnvHttpProxyAgent;
export const errors = load('undici/lib/core/errors.js') as typeof Undici.errors;

const { parseURL } = load('undici/lib/core/util.js') as { parseURL: (url: string | URL) => URL };

type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Undici.Dispatcher };

/** undici's `request`, always given its dispatcher: the URL parsed and split as the entry's own does. */
export async function request(url: string | URL, options: RequestOptions): Promise<Undici.Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  const parsed = parseURL(url);
  return dispatcher.request({ ...rest, origin: parsed.origin, path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname });
}
