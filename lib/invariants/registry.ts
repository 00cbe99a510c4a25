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
