import type { Secret } from '../http/redactor.ts';
import type { HttpLimits } from '../http/client.ts';
import type { TransportOptions } from '../http/transport.ts';
import type { ResolvedProfile } from '../profile/resolved-profile.ts';

/**
 * What the runner hands to the suites (vitest `provide`): serialisable, resolved once in the
 * main process. Token values ride along to the one worker that holds the client and go nowhere
 * else; every suite names tokens by role.
 */
export interface RunContext {
  runId: string;
  baseUrl: string;
  tokens: Record<string, Secret>;
  profile: ResolvedProfile;
  seed: number;
  /** JSON-lines file every exchange is appended to (the HAR and request counts come from it). */
  transcriptFile: string;
  /** The `seq` of the worker's first exchange: the main process's (the preflight's) come before it. */
  firstSeq?: number;
  httpLimits?: Partial<HttpLimits>;
  /** Why a token role has no token (`tokens.revoked: ASI_TOKEN_REVOKED is set but empty`), for not-run verdicts. */
  missingTokens?: Record<string, string>;
  /** The suites this run runs, by name: an early suite may start work that a later one needs. */
  suites?: string[];
  /** --only and --skip: which tests register (lib/catalogue/selection.ts). */
  selection?: { only: string[]; skip: string[] };
  /** Extra headers, TLS material, proxy; secrets among them ride along like the tokens. */
  transport?: TransportOptions;
  /** Replay path of a property (fast-check), keyed by requirement id. */
  replayPaths?: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    asi: RunContext;
  }
}
