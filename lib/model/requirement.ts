/** How strongly the spec binds a requirement (h2spec: MUST fails the run, SHOULD only with --fail-on should). */
export type Level = 'MUST' | 'SHOULD' | 'INFO';

export type Area =
  | 'openapi'
  | 'unauthenticated'
  | 'auth'
  | 'errors'
  | 'ledger'
  | 'ratelimit'
  | 'conversation';

/** One entry of the requirement catalogue. Ids are hand-written and never derived from order. */
export interface Requirement {
  /** `area/section/slug`, for example `auth/5.3/missing-header`. */
  readonly id: string;
  readonly level: Level;
  readonly area: Area;
  /** Section of the spec, for example `5.3` or `8.1`. */
  readonly section: string;
  /** One sentence: what a conformant server does. */
  readonly statement: string;
  /** The spec's own words this requirement rests on, quoted. */
  readonly quote?: string;
}
