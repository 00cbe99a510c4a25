import type { ExchangeContext } from './exchange-context.ts';
import type { TokenRecord } from './tokens.ts';

export type AuthOutcome = { ok: true; token: TokenRecord } | { ok: false; code: 'auth.token_missing' | 'auth.token_invalid'; message: string };

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
    if (defects.has('auth-missing-as-invalid')) return { ok: false, code: 'auth.token_invalid', message: 'The bearer token is invalid.' };
    return { ok: false, code: 'auth.token_missing', message: 'The Authorization header with a bearer token is missing.' };
  }
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  if (match === null) {
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
    return { ok: false, code: 'auth.token_invalid', message: 'The bearer token has been revoked.' };
  }
  if (token.state === 'expired' && !defects.has('auth-accepts-expired')) {
    return { ok: false, code: 'auth.token_invalid', message: 'The bearer token has expired.' };
  }
  return { ok: true, token };
}
