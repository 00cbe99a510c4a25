import { consoleText } from '../report/console-text.ts';
import type { ResultState } from '../report/report-model.ts';
import { VERDICT_LABEL, VERDICT_ORDER } from '../report/writers/run-facts.ts';
import { MANIFEST_NAME } from './bundle-layout.ts';
import type { Verification } from './verify-bundle.ts';
import type { VerifyProblem } from './verify-problem.ts';

/**
 * The verdict block verify prints: what was checked, a line each, then whether the bundle is
 * intact (with every problem, one per line, naming the file and the requirement) and, apart,
 * whether the run is a certification and why not. Text from the bundle is console-safe.
 */

function signatureLine(v: Verification, keyFile: string | undefined): string {
  const s = v.signature;
  switch (s.state) {
    case 'verified':
      return `Ed25519, key ${s.keyid}: verified with ${keyFile ?? 'the public key given'}`;
    case 'not-checked':
      return `Ed25519, key ${s.keyid ?? '(no key id)'}: not checked (give the signer's public key with --public-key)`;
    case 'unsigned':
      return 'none: the manifest is not signed (run --sign-key signs it)';
    case 'failed':
      return 'does not verify (below)';
  }
}

/**
 * A problem, one line: the file (and requirement) and what differs. A consequence of a file
 * changed after the run comes after the changed files and says which change it follows from.
 */
export function problemLine(p: VerifyProblem): string {
  const requirement = p.requirement === undefined ? '' : ` ${consoleText(p.requirement)}`;
  if (p.consequenceOf === undefined) return `  × ${consoleText(p.file)}${requirement}: ${consoleText(p.message)}`;
  const own = p.file === MANIFEST_NAME ? '' : ' (as the run wrote it)';
  return `  ↳ follows from the change to ${consoleText(p.consequenceOf.join(' and '))}: ${consoleText(p.file)}${requirement}${own}: ${consoleText(p.message)}`;
}

function countsText(counts: Record<ResultState, number>): string {
  return VERDICT_ORDER.map((v) => `${counts[v]} ${VERDICT_LABEL[v]}`).join(', ');
}

export function verificationText(v: Verification, keyFile?: string): string {
  const rows: Array<[string, string]> = [[`bundle`, `${v.source} (${v.form === 'tar.gz' ? 'archive' : 'folder'}, ${v.files} files, ${v.form === 'tar.gz' ? 'sha256' : 'manifest sha256'} ${v.digest})`]];
  const steps = new Map(v.checked.map((c) => [c.name, c.line]));
  const manifest = steps.get('manifest');
  if (manifest !== undefined) rows.push(['manifest', manifest]);
  rows.push(['signature', signatureLine(v, keyFile)]);
  for (const c of v.checked) if (c.name !== 'manifest') rows.push([c.name, c.line]);
  if (v.run !== undefined) {
    const impl = v.run.implementation === undefined ? '' : ` (${[v.run.implementation.label, v.run.implementation.version].filter((x) => x !== undefined).join(' ')})`;
    rows.push(['run', `${v.run.id} of ${v.run.baseUrl}${v.run.embedded ? ' (the embedded reference)' : impl}, started ${v.run.startedAt}`]);
  }
  if (v.outcome !== undefined) rows.push(['outcome', `${v.outcome.outcome}, exit code ${v.outcome.exitCode}: ${countsText(v.outcome.counts)}`]);
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = rows.map(([k, text]) => `  ${k.padEnd(width)}  ${consoleText(text)}`);
  lines.push('');
  if (v.intact) lines.push('INTACT: every file is as the run wrote it, every judgement re-runs to the same findings on the recorded exchanges, every verdict follows from those findings, and every exchange they cite is in the record as cited.');
  else {
    lines.push(`DOES NOT VERIFY: ${v.problems.length} problem${v.problems.length === 1 ? '' : 's'}`);
    for (const p of v.problems) lines.push(problemLine(p));
  }
  lines.push(verdictLine(v));
  return lines.join('\n');
}

/**
 * Whether the run certifies, what it tested first: the embedded reference is a demo (its own
 * verdict line, never a bare CERTIFICATION), and a subset, waivers or other limits lead the reasons.
 */
function verdictLine(v: Verification): string {
  const c = v.certification;
  const scope = v.scope ?? [];
  const reference = v.run?.embedded === true;
  if (c.certifying && v.harness !== undefined) {
    const full = `a full run at the spec's limits, every requirement selected and judged, no waiver, by an unmodified ${v.harness.name} ${v.harness.version}.`;
    return reference ? `REFERENCE DEMO, NO IMPLEMENTATION CERTIFIED: the embedded reference implementation passed ${full}` : `CERTIFICATION: ${full}`;
  }
  const head = reference ? 'REFERENCE DEMO, NOT A CERTIFICATION' : 'NOT A CERTIFICATION';
  return `${head}: ${consoleText([...scope, ...c.because].join('; ') || 'unknown')}`;
}
