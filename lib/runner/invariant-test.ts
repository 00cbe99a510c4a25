import { requirementById } from '../catalogue/index.ts';
import type { RecordJudge } from '../invariants/judge-record.ts';
import { trimFinding } from '../suite/evidence-trim.ts';
import { consoleText } from '../report/console-text.ts';
import { levelAdjusted } from '../report/report-model.ts';
import type { CollectedTest } from './findings-collector.ts';

/** The suite name the run-wide rules report under. */
export const INVARIANTS_SUITE = 'run-wide';

/** Characters of a rule's note or failure a progress line shows; the reports hold all of it. */
const SAID_CHARS = 200;

const MARK = { pass: '✓', fail: '×', warn: '!', 'not-run': '-', inconclusive: '?' } as const;

/**
 * The run-wide rules as one more test of the run: their findings over every exchange the record
 * holds, with a progress line per requirement. Undefined when the run chose none of them.
 */
export function invariantTest(judge: RecordJudge, failOn: 'must' | 'should', progress: (line: string) => void): CollectedTest | undefined {
  if (judge.requirements.length === 0) return undefined;
  const started = Date.now();
  const findings = judge.findings();
  progress(`\n${INVARIANTS_SUITE} (every exchange of the run: ${judge.exchanges})`);
  let failed = false;
  for (const f of findings) {
    const verdict = levelAdjusted(f.verdict, requirementById(f.requirement)?.level ?? 'MUST', failOn);
    if (verdict === 'fail') failed = true;
    const said = (f.verdict === 'fail' ? f.actual : f.note) ?? '';
    const shown = said.length > SAID_CHARS ? `${said.slice(0, SAID_CHARS)}…` : said;
    progress(`  ${MARK[verdict]} ${f.requirement} ${consoleText(shown)}`.trimEnd());
  }
  return {
    suite: INVARIANTS_SUITE,
    title: `${INVARIANTS_SUITE} rules judged on every recorded exchange (${judge.exchanges})`,
    state: failed ? 'failed' : 'passed',
    requirements: judge.requirements,
    findings: findings.map(trimFinding),
    requests: 0,
    durationMs: Date.now() - started,
  };
}
