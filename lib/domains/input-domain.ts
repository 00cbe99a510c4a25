/**
 * One input the spec names (a query parameter, a header, a body field, a path id), with its domain
 * as the spec states it. Generators are derived from these entries and biased to their edges; what
 * a sentence leaves open is named with the register entry that explains it, never asserted.
 */
export interface InputDomain {
  /** Stable key, `<carrier>:<name>` (`query:from`, `header:Accept`, `body:stream`). */
  id: string;
  /** Where the input travels. */
  carrier: 'query' | 'header' | 'body' | 'path';
  /** The input's name as the spec writes it. */
  name: string;
  /** The routes it binds, as the spec names them (`GET /credits/operations`, `message POST`). */
  routes: readonly string[];
  /** The spec's section that fixes it. */
  section: string;
  /** The sentence (or table cell) of the spec that fixes the domain, quoted. */
  quote: string;
  /** The valid values, in words: what every reading of the sentence accepts. */
  valid: string;
  /** What falls outside the domain, in words: what every reading rejects. */
  invalid: string;
  /** The edges the generators aim at (min, max, ±1, empty, forms, encodings...). */
  edges: readonly string[];
  /** Points the sentence leaves open, each with the ambiguity register's heading that says why. */
  open: ReadonlyArray<{ point: string; register: string }>;
}
