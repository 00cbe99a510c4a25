import { pass, type Finding } from '../model/finding.ts';
import { judged } from './judged.ts';

/**
 * A property none of whose inputs gave a finding of any kind: it held on every input it ran. The
 * record holds each input's judgements; this one says how many inputs there were.
 */
export const propertyHeldFinding = judged('property-outcome/propertyHeldFinding', function propertyHeldFinding(requirement: string, runs: number): Finding {
  return pass(requirement, [], `${runs} generated inputs, none failed`);
});
