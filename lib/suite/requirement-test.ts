import { inject, test } from 'vitest';
import { requireRequirement } from '../catalogue/index.ts';
import { testIsSelected } from '../catalogue/selection.ts';
import type { Finding } from '../model/finding.ts';
import { notRun } from '../model/finding.ts';
import { formatFailure } from '../report/format-failure.ts';
import { trimFinding } from '../model/evidence-trim.ts';
import { judgingFor } from './judgement-log.ts';
import { RunStopping } from './fault-hooks.ts';
import { session, type Session } from './session.ts';
import type { TestRecord } from './test-record.ts';

export interface TestKit extends Session {
  /** The requirement ids this test declared. */
  ids: string[];
  /** Findings saying why this test cannot run (a missing token or hook); they show as not-run. */
  notRun(why: string): Finding[];
  /** Not-run findings for a token role the run has no token for, saying exactly why (unset, empty, not in the profile). */
  noToken(role: string): Finding[];
}

export interface RequirementTestOptions {
  timeout?: number;
}

/**
 * A violation needs an answer to judge: a failure whose last exchange got no response at all
 * (timeout, refused, target down) says nothing about the requirement and reads as inconclusive.
 */
function withoutResponseInconclusive(finding: Finding): Finding {
  const last = finding.exchanges[finding.exchanges.length - 1];
  if (finding.verdict !== 'fail' || last === undefined || last.response !== undefined) return finding;
  return { ...finding, verdict: 'inconclusive', note: `no response to judge: ${last.error?.code ?? 'unknown'}: ${last.error?.message ?? ''}` };
}

/** The requirement ids the running test declared: one worker runs one test at a time. */
let running: readonly string[] = [];

/** What the test running now declared it checks (empty outside a requirement test). */
export function runningTestIds(): readonly string[] {
  return running;
}

/** Thrown by a test whose checks found a MUST or SHOULD violated, so vitest marks it failed. */
class ConformanceFailure extends Error {
  override name = 'ConformanceFailure';
}

/**
 * One conformance test: titled `<id> <what is sent>`, tagged with the requirement ids it checks,
 * and ending with findings (data) that the reporter turns into verdicts. The body returns
 * findings; it never asserts inline.
 */
export function requirementTest(
  ids: string | readonly string[],
  what: string,
  body: (kit: TestKit) => Promise<Finding[]>,
  options: RequirementTestOptions = {},
): void {
  const list = typeof ids === 'string' ? [ids] : [...ids];
  const first = list[0];
  if (first === undefined) throw new Error(`requirementTest "${what}" names no requirement`);
  for (const id of list) requireRequirement(id);
  // --only and --skip act here, on the ids a test declares (never on its title): a test none of
  // whose requirements were chosen is not registered at all, so it sends nothing.
  const selection = inject('asi').selection;
  if (selection !== undefined && !testIsSelected(list, selection)) return;
  const record: TestRecord = { requirements: list, findings: [] };
  test(`${first} ${what}`, { timeout: options.timeout ?? 90_000, meta: { asi: record } }, async (ctx) => {
    const s = session();
    const before = s.requestCount();
    const why = (role: string): string => s.context.missingTokens?.[role] ?? `the profile names no ${role} token (tokens.${role})`;
    const kit: TestKit = { ...s, ids: list, notRun: (w) => list.map((id) => notRun(id, w)), noToken: (role) => list.map((id) => notRun(id, why(role))) };
    let findings: Finding[];
    judgingFor(`${first} ${what}`);
    running = list;
    try {
      findings = await body(kit);
    } catch (err) {
      // The run is stopping (lib/suite/fault-hooks.ts): left out like the tests after it, not broken.
      if (err instanceof RunStopping) {
        ctx.task.meta.asi = { requirements: list, findings: [], requests: s.requestCount() - before };
        ctx.skip(err.message);
      }
      const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
      ctx.task.meta.asi = { requirements: list, findings: [], error: s.client.redact(text), requests: s.requestCount() - before };
      throw err;
    } finally {
      running = [];
      judgingFor(undefined);
    }
    for (const f of findings) requireRequirement(f.requirement);
    findings = findings.map(withoutResponseInconclusive);
    ctx.task.meta.asi = { requirements: list, findings: findings.map(trimFinding), requests: s.requestCount() - before };
    const violations = findings.filter((f) => f.verdict === 'fail' && requireRequirement(f.requirement).level !== 'INFO');
    if (violations.length > 0) throw new ConformanceFailure(violations.map((v) => formatFailure(v)).join('\n\n'));
    if (findings.length > 0 && findings.every((f) => f.verdict === 'not-run')) ctx.skip(findings[0]?.note);
  });
}
