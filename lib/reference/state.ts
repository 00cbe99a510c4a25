import { randomUUID } from 'node:crypto';
import type { RecordedRequest, RequestScript } from './scripted-mode.ts';
import { READ_LIMIT, WINDOW_SECONDS, WRITE_LIMIT } from '../spec-constants.ts';
import { ledgerShapeOf, type LedgerShape } from './ledger-shape.ts';
import { LedgerStore } from './ledger-store.ts';
import { RollingWindowLimiter } from './rate-limiter.ts';
import { SwitchSet } from './switches.ts';
import { TokenRegistry } from './tokens.ts';

export type ReferenceFault = 'limiter_store_down' | 'upstream_unavailable' | 'spend_cap_reached';
export const REFERENCE_FAULTS: readonly ReferenceFault[] = ['limiter_store_down', 'upstream_unavailable', 'spend_cap_reached'];

export interface ReferenceOptions {
  host?: string;
  port?: number;
  /** Pool sizes and window; the spec's by default. Other values are for fast self-tests. */
  limits?: { read?: number; write?: number; windowS?: number };
  defects?: string[];
  variants?: string[];
  /** The instant the seeded ledger is laid out against; defaults to the start time. */
  seedNow?: number;
  /** Changes the demo tokens (two servers on one machine with distinct tokens). */
  tokenSecret?: string;
  /** The ledger's size, page cap and writers (the bench); the variant switches set them otherwise. */
  ledger?: Partial<LedgerShape>;
  /** Milliseconds every response is delayed (variant `latency-150ms`). */
  latencyMs?: number;
  /** Up to this many milliseconds more, drawn anew for every request: a round trip that varies. */
  jitterMs?: number;
  /**
   * Milliseconds the server's clock is ahead of the machine's (negative: behind): its Date header,
   * X-RateLimit-Reset, row timestamps and windows all read it (variants `ledger-clock-ahead`,
   * `ledger-clock-behind`, `ratelimit-clock-ahead`, `ratelimit-clock-behind`).
   */
  clockSkewMs?: number;
  /** Scripted, recording mode (client grading): the script answers every request, the recorder gets each one redacted. */
  scripted?: { script: RequestScript; recorder: (r: RecordedRequest) => void };
}

/** Variants `*-clock-ahead`: the server's clock runs this far ahead of the machine's (not whole seconds, as a drifting clock). */
export const CLOCK_AHEAD_MS = 47_300;
/** Variants `*-clock-behind`: this far behind. */
export const CLOCK_BEHIND_MS = -83_700;

/** Requests per minute per IP on the unauthenticated routes (§8.1: "its numeric limit is not shown"; the reference's choice). */
export const IP_LIMIT_PER_MINUTE = 1200;
/** Variant `unauthenticated-low-ip-limit`: requests per window per IP, over the token pools' window. */
export const LOW_IP_LIMIT = 3;

/** Everything a running reference server knows. */
export class ReferenceState {
  readonly limits: { read: number; write: number; windowS: number };
  readonly defects: SwitchSet;
  readonly variants: SwitchSet;
  readonly tokens: TokenRegistry;
  readonly readLimiter: RollingWindowLimiter;
  readonly writeLimiter: RollingWindowLimiter;
  readonly ipLimiter: RollingWindowLimiter;
  /** Defect `auth-failures-rate-limited`: failed authentications counted per credential, up to the read limit. */
  readonly failedAuthLimiter: RollingWindowLimiter;
  readonly faults = new Set<ReferenceFault>();
  readonly ledger = new LedgerStore();
  readonly ledgerShape: LedgerShape;
  readonly latencyMs: number;
  readonly jitterMs: number;
  readonly startedAt: number;
  readonly seedNow: number;
  readonly clockSkewMs: number;
  #requestCounter = 0;

  constructor(options: ReferenceOptions) {
    this.limits = {
      read: options.limits?.read ?? READ_LIMIT,
      write: options.limits?.write ?? WRITE_LIMIT,
      windowS: options.limits?.windowS ?? WINDOW_SECONDS,
    };
    this.defects = new SwitchSet(options.defects ?? []);
    this.variants = new SwitchSet(options.variants ?? []);
    this.ledger.distinctInstants = this.variants.has('ledger-no-ties');
    this.ledgerShape = ledgerShapeOf(options.ledger, this.variants);
    this.latencyMs = options.latencyMs ?? (this.variants.has('latency-150ms') ? 150 : 0);
    this.jitterMs = options.jitterMs ?? 0;
    this.tokens = new TokenRegistry(options.tokenSecret);
    this.readLimiter = new RollingWindowLimiter(this.limits.read, this.limits.windowS * 1000);
    this.writeLimiter = new RollingWindowLimiter(this.limits.write, this.limits.windowS * 1000);
    this.ipLimiter = this.variants.has('unauthenticated-low-ip-limit')
      ? new RollingWindowLimiter(LOW_IP_LIMIT, this.limits.windowS * 1000)
      : new RollingWindowLimiter(IP_LIMIT_PER_MINUTE, 60_000);
    this.failedAuthLimiter = new RollingWindowLimiter(this.limits.read, this.limits.windowS * 1000);
    const skewed = (direction: string): boolean => this.variants.has(`ledger-clock-${direction}`) || this.variants.has(`ratelimit-clock-${direction}`);
    this.clockSkewMs = options.clockSkewMs ?? (skewed('ahead') ? CLOCK_AHEAD_MS : skewed('behind') ? CLOCK_BEHIND_MS : 0);
    this.startedAt = this.now();
    this.seedNow = options.seedNow ?? this.startedAt;
  }

  /** How long to hold the next request before handling it: the latency, plus a fresh draw of the jitter. */
  delayMs(): number {
    return this.latencyMs + (this.jitterMs > 0 ? Math.random() * this.jitterMs : 0);
  }

  /** The server's clock: the machine's, skewed as the options say. */
  now(): number {
    return Date.now() + this.clockSkewMs;
  }

  nextRequestId(): string {
    this.#requestCounter += 1;
    // Variant: a UUID, as many stacks make them; §7 gives `request_id` no format.
    if (this.variants.has('errors-request-id-uuid')) return randomUUID();
    return `req_${this.startedAt.toString(36)}_${this.#requestCounter.toString(36).padStart(6, '0')}`;
  }

  /** 401 answers so far, for the made-up pool of variant `auth-401-rate-limit-headers`. */
  private unauthorizedCount = 0;

  /**
   * Variant `auth-401-rate-limit-headers`: X-RateLimit-* on a 401, as a gateway's per-client pool
   * of failed attempts would show them (1,000 a window, never refusing). §4 binds the headers to
   * authenticated responses and says nothing of a 401's; none when the switch is off.
   */
  unauthorizedPoolHeaders(): Record<string, string> {
    if (!this.variants.has('auth-401-rate-limit-headers')) return {};
    this.unauthorizedCount += 1;
    const nowS = Math.floor(this.now() / 1000);
    return { 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': String(Math.max(0, 1000 - this.unauthorizedCount)), 'x-ratelimit-reset': String(nowS + this.limits.windowS) };
  }
}
