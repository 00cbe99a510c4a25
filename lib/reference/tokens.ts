import { createHash } from 'node:crypto';

/** §5.2: `<prefix>_live_<hex>`; the reference's fixed prefix. */
export const TOKEN_PREFIX = 'asi';

export type TokenState = 'active' | 'revoked' | 'expired';

export interface TokenRecord {
  /** Stable id used for rate-limit scoping (never the token value). */
  id: string;
  role: string;
  workspace: string;
  state: TokenState;
  value: string;
}

/** The demo tokens: two active tokens and a revoked and an expired one in workspace ws_1, one in ws_2. */
const DEMO: ReadonlyArray<Omit<TokenRecord, 'value'>> = [
  { id: 'tok_primary', role: 'primary', workspace: 'ws_1', state: 'active' },
  { id: 'tok_secondary', role: 'secondary', workspace: 'ws_1', state: 'active' },
  { id: 'tok_other', role: 'other_workspace', workspace: 'ws_2', state: 'active' },
  { id: 'tok_revoked', role: 'revoked', workspace: 'ws_1', state: 'revoked' },
  { id: 'tok_expired', role: 'expired', workspace: 'ws_1', state: 'expired' },
];

/** Deterministic per role and secret, so a standalone server keeps its tokens across restarts. */
function tokenValue(role: string, secret: string): string {
  return `${TOKEN_PREFIX}_live_${createHash('sha256').update(`asi-reference:${secret}:${role}`).digest('hex').slice(0, 32)}`;
}

export class TokenRegistry {
  readonly #byValue = new Map<string, TokenRecord>();
  readonly records: TokenRecord[];

  constructor(secret = 'demo') {
    this.records = DEMO.map((t) => ({ ...t, value: tokenValue(t.role, secret) }));
    for (const r of this.records) this.#byValue.set(r.value, r);
  }

  lookup(value: string): TokenRecord | undefined {
    return this.#byValue.get(value);
  }

  /** Role to token value, for `serve` to print and for the embedded run to use. */
  byRole(): Record<string, string> {
    return Object.fromEntries(this.records.map((r) => [r.role, r.value]));
  }
}
