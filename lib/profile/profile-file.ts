/** The profile as written in YAML (config/profile.schema.json); key names are fixed: other tooling reads them. */
export type TokenSource = { env: string } | { value: string };

export interface ProfileFile {
  base_url: string;
  tokens: Partial<Record<TokenRole, TokenSource>> & { primary: TokenSource };
  messages?: {
    routes: Array<{ path: string; params?: Record<string, string>; body: Record<string, unknown> }>;
    async?: { body: Record<string, unknown>; job_id: string; poll: string };
  };
  limits?: { read?: number; write?: number; window_s?: number };
  pacing?: { max_in_flight?: number };
  implementation?: { label?: string; version?: string };
  faults?: Partial<Record<'limiter_store_down' | 'upstream_unavailable' | 'spend_cap_reached', { enable: string; disable: string }>>;
  /** Extra request headers by name: a literal value, or `{ env: VAR }` for a secret one. */
  headers?: Record<string, string | { env: string }>;
  /** TLS material for an https target; paths relative to the profile file. */
  tls?: { ca_file?: string; cert_file?: string; key_file?: string; passphrase?: { env: string } };
}

export const TOKEN_ROLES = ['primary', 'secondary', 'other_workspace', 'revoked', 'expired'] as const;
export type TokenRole = (typeof TOKEN_ROLES)[number];

/** Conventional variable names, used by `--base-url` without a profile and in the example profile. */
export const DEFAULT_TOKEN_ENV: Record<TokenRole, string> = {
  primary: 'ASI_TOKEN',
  secondary: 'ASI_TOKEN_2',
  other_workspace: 'ASI_TOKEN_WS2',
  revoked: 'ASI_TOKEN_REVOKED',
  expired: 'ASI_TOKEN_EXPIRED',
};
