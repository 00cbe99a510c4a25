/**
 * A profile after loading, validation and defaults: what suites read. Token values are not
 * here (see RunContext.tokens); only which roles exist.
 */
export interface MessageRoute {
  /** Path template relative to base_url, `{name}` placeholders already filled. */
  path: string;
  /** The template as written in the profile, for reports. */
  template: string;
  /** Body of a plain (REST, blocking) message. */
  body: Record<string, unknown>;
}

export interface AsyncJobSettings {
  /** Merged into the message body to ask for the job mode. */
  body: Record<string, unknown>;
  /** JSON pointer to the job id in the POST response. */
  jobIdPointer: string;
  /** Poll path template with `{job_id}`. */
  poll: string;
}

export interface FaultHook {
  enable: string;
  disable: string;
}

export const FAULT_NAMES = ['limiter_store_down', 'upstream_unavailable', 'spend_cap_reached'] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

export interface Limits {
  read: number;
  write: number;
  windowS: number;
}

export interface Pacing {
  /** Most requests in flight while a pool is spent on purpose, and caps probes side by side (`pacing.max_in_flight`). */
  maxInFlight: number;
}

export interface ResolvedProfile {
  /** File the profile came from, or `embedded reference`. */
  source: string;
  baseUrl: string;
  /** Roles that have a token: primary always; secondary, other_workspace, revoked, expired when given. */
  tokenRoles: string[];
  messages: { routes: MessageRoute[]; async?: AsyncJobSettings };
  limits: Limits;
  pacing: Pacing;
  /** False when limits differ from the spec's: the report is then not a certification. */
  certifying: boolean;
  faults: Partial<Record<FaultName, FaultHook>>;
  /** The implementation under test as the profile names it (reports show it; --label and --impl-version override). */
  implementation?: { label?: string; version?: string };
}
