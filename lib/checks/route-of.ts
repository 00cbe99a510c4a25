import type { Exchange } from '../model/exchange.ts';
import type { ResolvedProfile } from '../profile/resolved-profile.ts';
import { LEDGER_PATH, ME_PATH, UNAUTHENTICATED_PATHS } from '../spec-constants.ts';

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The path of a recorded request relative to base_url, or undefined when it went elsewhere (another origin, another path). */
export function pathUnderBase(exchange: Exchange, baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(exchange.request.url);
  } catch {
    return undefined;
  }
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  return url.origin === base.origin && url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : undefined;
}

/**
 * The route an exchange went to, as the spec or the profile names it (`/me`, `/credits/operations`,
 * `/deal-agents/{agent_id}/messages`, `/message-jobs/{job_id}`), so that two runs with other ids
 * compare; `other` for anything else.
 */
export function routeOf(exchange: Exchange, profile: Pick<ResolvedProfile, 'baseUrl' | 'messages'>): string {
  const path = pathUnderBase(exchange, profile.baseUrl);
  if (path === undefined) return 'other';
  if ([ME_PATH, LEDGER_PATH, ...UNAUTHENTICATED_PATHS].includes(path)) return path;
  for (const route of profile.messages.routes) if (route.path === path) return route.template;
  const poll = profile.messages.async?.poll;
  if (poll !== undefined && new RegExp(`^${poll.split('{job_id}').map(escapeRegExp).join('[^/]+')}$`).test(path)) return poll;
  return 'other';
}
