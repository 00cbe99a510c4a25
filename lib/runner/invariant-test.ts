import { requirementById } from '../catalogue/index.ts';
import type { Finding } from '../model/finding.ts';
import { trimFinding } from '../model/evidence-trim.ts';
import { consoleText } from '../report/console-text.ts';
import { levelAdjusted } from '../report/report-model.ts';
import type { CollectedTest } from './findings-collector.ts';
import { VERDICT_MARK } from '../model/words.ts';

/** The suite name the run-wide rules report under. */
export const INVARIANTS_SUITE = 'run-wide';

/** Characters of a rule's note or failure a progress line shows; the reports hold all of it. */
const SAID_CHARS = 200;

/**
 * The run-wide rules as one more test of the run: their findings over every exchange the record
 * holds, with a progress line per requirement. A partial run keeps only what its exchanges gave
 * the rules to judge: a rule that met nothing there speaks of what the run did not choose.
 * Undefined when the run chose none of them, or a partial run reached none.
 */
export function invariantTest(judged: readonly Finding[], exchanges: number, failOn: 'must' | 'should', partial: boolean, progress: (line: string) => void): CollectedTest | undefined {
  const findings = judged.filter((f) => !partial || f.verdict !== 'not-run');
  if (findings.length === 0) return undefined;
  progress(`\n${INVARIANTS_SUITE} (every exchange of the run: ${exchanges})`);
  let failed = false;
  for (const f of findings) {
    const verdict = levelAdjusted(f.verdict, requirementById(f.requirement)?.level ?? 'MUST', failOn);
    if (verdict === 'fail') failed = true;
    const said = (f.verdict === 'fail' ? f.actual : f.note) ?? '';
    const shown = said.length > SAID_CHARS ? `${said.slice(0, SAID_CHARS)}…` : said;
    progress(`  ${VERDICT_MARK[verdict]} ${f.requirement} ${consoleText(shown)}`.trimEnd());
  }
  return {
    suite: INVARIANTS_SUITE,
    title: `${INVARIANTS_SUITE} rules judged on every recorded exchange (${exchanges})`,
    state: failed ? 'failed' : 'passed',
    requirements: findings.map((f) => f.requirement),
    findings: findings.map(trimFinding),
    requests: 0,
  };
}
