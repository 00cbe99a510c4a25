import type { ExchangeContext } from './exchange-context.ts';
import type { TokenRecord } from './tokens.ts';

export type AuthOutcome =
  | { ok: true; token: TokenRecord }
  /** `inactive`: the token is one of the workspace's, revoked or expired. */
  | { ok: false; code: 'auth.token_missing' | 'auth.token_invalid'; message: string; inactive?: 'revoked' | 'expired' };

/**
 * §5: bearer authentication. The reference's choices where the spec is silent: a header that
 * is not a Bearer credential, or a Bearer scheme with no token, counts as missing (§7: "No bearer
 * header"); anything else that is not an active token counts as invalid. The scheme name is
 * matched case-insensitively (RFC 9110 11.1).
 */
export function authenticate(ctx: ExchangeContext): AuthOutcome {
  const header = ctx.header('authorization');
  const defects = ctx.state.defects;
  if (header === undefined || header.trim() === '') {
    const slipped = withoutHeaderDefect(ctx);
    if (slipped !== undefined) return { ok: true, token: slipped };
    if (defects.has('auth-missing-as-invalid')) return { ok: false, code: 'auth.token_invalid', message: 'The bearer token is invalid.' };
    return { ok: false, code: 'auth.token_missing', message: 'The Authorization header with a bearer token is missing.' };
  }
  // Defect `auth-scheme-case-sensitive` knows only the spelling `Bearer`; `auth-bearer-first-word`
  // takes the first word after the scheme and ignores the rest; `auth-scheme-ending-in-bearer`
  // takes any scheme whose name ends in `bearer` (`XBearer`).
  const bearer = defects.has('auth-scheme-case-sensitive')
    ? /^\s*Bearer\s+(\S+)\s*$/
    : defects.has('auth-bearer-first-word')
      ? /^\s*bearer\s+(\S+)/i
      : defects.has('auth-scheme-ending-in-bearer')
        ? /^\s*\S*bearer\s+(\S+)\s*$/i
        : /^\s*bearer\s+(\S+)\s*$/i;
  const match = bearer.exec(header);
  if (match === null) {
    if (!/^\s*bearer\s/i.test(header) && defects.has('auth-other-scheme-invalid')) return { ok: false, code: 'auth.token_invalid', message: 'The credentials are invalid.' };
    if (/^\s*bearer\s*$/i.test(header) || !/^\s*bearer\s/i.test(header)) {
      return { ok: false, code: 'auth.token_missing', message: 'The Authorization header does not carry a bearer token.' };
    }
    return { ok: false, code: 'auth.token_invalid', message: 'The bearer token is malformed.' };
  }
  const value = match[1]!;
  const token = ctx.state.tokens.lookup(value);
  if (defects.has('auth-accepts-unknown-live-token') && token === undefined && /^[a-z0-9]+_live_[0-9a-f]+$/i.test(value)) {
    return { ok: true, token: ctx.state.tokens.records[0]! };
  }
  if (token === undefined) return { ok: false, code: 'auth.token_invalid', message: 'The bearer token is invalid.' };
  if (token.state === 'revoked' && !defects.has('auth-accepts-revoked')) {
    return { ok: false, code: 'auth.token_invalid', message: 'The bearer token has been revoked.', inactive: 'revoked' };
  }
  if (token.state === 'expired' && !defects.has('auth-accepts-expired')) {
    return { ok: false, code: 'auth.token_invalid', message: 'The bearer token has expired.', inactive: 'expired' };
  }
  return { ok: true, token };
}

/** The `access_token` cookie of a Cookie header, if any. */
function cookieToken(cookie: string | undefined): string | undefined {
  for (const pair of (cookie ?? '').split(';')) {
    const [name, ...value] = pair.split('=');
    if (name?.trim() === 'access_token') return value.join('=').trim();
  }
  return undefined;
}

/**
 * Defects that serve a request with no Authorization header at all: streamed message POSTs
 * (`Accept: text/event-stream`) and job polls skip authentication as the primary token, and a
 * token in the `access_token` query parameter, cookie or JSON body field is taken as if it were
 * the header.
 */
function withoutHeaderDefect(ctx: ExchangeContext): TokenRecord | undefined {
  const d = ctx.state.defects;
  const primary = ctx.state.tokens.records[0];
  if (d.has('auth-stream-skips-auth') && ctx.method === 'POST' && (ctx.header('accept') ?? '').includes('text/event-stream')) return primary;
  if (d.has('auth-job-poll-skips-auth') && ctx.path.startsWith('/message-jobs/')) return primary;
  const misplaced =
    (d.has('auth-query-token-accepted') ? (ctx.url.searchParams.get('access_token') ?? undefined) : undefined) ??
    (d.has('auth-cookie-token-accepted') ? cookieToken(ctx.header('cookie')) : undefined) ??
    (d.has('auth-body-token-accepted') ? ctx.bodyFieldToken : undefined);
  if (misplaced === undefined) return undefined;
  const token = ctx.state.tokens.lookup(misplaced);
  return token?.state === 'active' ? token : undefined;
}

/** Defect `auth-body-token-accepted`: reads a POST body's `access_token` field before authentication. */
export async function readBodyFieldToken(ctx: ExchangeContext): Promise<void> {
  if (!ctx.state.defects.has('auth-body-token-accepted') || ctx.method !== 'POST' || ctx.header('authorization') !== undefined) return;
  const field = await ctx.bodyField('access_token');
  if (typeof field === 'string') ctx.bodyFieldToken = field;
}
