import { READ_LIMIT, WINDOW_SECONDS, WRITE_LIMIT } from '../spec-constants.ts';
import type { RunMetadata } from './report-model.ts';

/**
 * What a run tested, beside whether it passed: the embedded reference (a demo, not anyone's
 * implementation), a subset of the catalogue, results waived, limits other than the spec's. Every
 * output that could be read as a certificate says these first, in the same words.
 */

/** The run tested the harness's own reference: a demonstration, not an implementation under test. */
export const REFERENCE_DEMO = 'a demo of the embedded reference implementation, not of an implementation under test';

/** What the run's metadata says it tested, in short clauses, the reference first; empty for a full run of a target at the spec's limits without waivers. */
export function scopeClauses(meta: Pick<RunMetadata, 'target' | 'selection' | 'limits'>, waived: number): string[] {
  const out: string[] = [];
  if (meta.target.embedded) out.push(REFERENCE_DEMO);
  const s = meta.selection;
  if (s !== undefined && s.only.length + s.skip.length > 0) out.push('a subset of requirements');
  else if (s !== undefined && s.suites.length > 0) out.push('a subset of suites');
  if (waived > 0) out.push(`with ${waived} waiver${waived === 1 ? '' : 's'}`);
  const l = meta.limits;
  if (l.read !== READ_LIMIT || l.write !== WRITE_LIMIT || l.windowS !== WINDOW_SECONDS) out.push("at limits other than the spec's");
  return out;
}
