import type { Invariant } from './invariant.ts';
import { errorEnvelopeInvariant } from './rules/error-envelope.ts';
import { eventStreamsInvariant } from './rules/event-streams.ts';
import { jsonBodiesInvariant } from './rules/json-bodies.ts';
import { poolHeadersInvariant } from './rules/pool-headers.ts';
import { refusalsInvariant } from './rules/refusals.ts';
import { rollingWindowInvariant } from './rules/rolling-window.ts';
import { servedDescriptionInvariant } from './rules/served-description.ts';
import { serverErrorsInvariant } from './rules/server-errors.ts';
import { tokenRefusalInvariant } from './rules/token-refusal.ts';

/** The run-wide rules, each judging every recorded exchange its sentence binds. */
export const INVARIANTS: readonly Invariant[] = [
  errorEnvelopeInvariant,
  poolHeadersInvariant,
  refusalsInvariant,
  rollingWindowInvariant,
  jsonBodiesInvariant,
  eventStreamsInvariant,
  serverErrorsInvariant,
  servedDescriptionInvariant,
  tokenRefusalInvariant,
];

/** Every requirement a run-wide rule judges, each judged by one rule only. */
export const INVARIANT_REQUIREMENTS: readonly string[] = INVARIANTS.flatMap((i) => i.requirements);

/**
 * The requirements that only the run-wide rules judge: no test of the suites names them, and
 * every exchange of every test is their evidence. `run --only` with one of them chooses every test
 * (lib/runner/certify.ts), so that a failure's `run --only ID` judges it again. A full run of the
 * reference checks this list against the tests that gave each requirement its findings
 * (test/e2e/certify-reference.test.ts).
 */
export const JUDGED_ONLY_RUN_WIDE: readonly string[] = [
  'openapi/9.3/responses-match-description',
  'openapi/9.3/responses-described',
  'errors/7/no-server-error',
  'errors/7/json-media-type',
  'ratelimit/8.1/rolling-window-model',
  'ratelimit/8.1/one-point-per-request',
  'ratelimit/8.1/no-hidden-route-cap',
  'ratelimit/8.1/retry-after-only-on-429',
  'conversation/6/tool-result-not-exposed',
];
