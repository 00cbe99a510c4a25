import { coverageOf, type Coverage } from '../coverage/coverage.ts';
import type { CoverageContext } from '../coverage/exchange-dimensions.ts';
import type { ResolvedProfile } from '../profile/resolved-profile.ts';
import type { Report } from '../report/report-model.ts';
import { REPORT_NAME, bundledReport, exchangeRecord } from './bundled-report.ts';
import type { OpenedBundle } from './open-bundle.ts';
import type { StepResult } from './verify-problem.ts';

/** The coverage context a report records: its profile's routes and limits, and the roles it had tokens for. */
export function coverageContextOfReport(report: Pick<Report, 'meta'>): CoverageContext | undefined {
  const profile = report.meta.profile as { base_url?: unknown; messages?: unknown; tokens?: unknown } | undefined;
  if (profile === undefined || typeof profile.base_url !== 'string' || typeof profile.messages !== 'object' || profile.messages === null) return undefined;
  const tokens = typeof profile.tokens === 'object' && profile.tokens !== null ? Object.keys(profile.tokens) : [];
  return { baseUrl: profile.base_url, messages: profile.messages as ResolvedProfile['messages'], limits: report.meta.limits, roles: tokens };
}

/** Where two coverages differ, in words; none when they agree. */
export function coverageDifferences(recorded: Coverage, derived: Coverage): string[] {
  const out: string[] = [];
  if (recorded.pairs.covered !== derived.pairs.covered || recorded.pairs.total !== derived.pairs.total) {
    out.push(`pairs ${recorded.pairs.covered} of ${recorded.pairs.total} in the report, ${derived.pairs.covered} of ${derived.pairs.total} from the record`);
  }
  if (recorded.triples !== undefined && (recorded.triples.covered !== derived.triples?.covered || recorded.triples.total !== derived.triples.total)) {
    out.push(`triples ${recorded.triples.covered} of ${recorded.triples.total} in the report, ${derived.triples?.covered ?? 0} of ${derived.triples?.total ?? 0} from the record`);
  }
  if (recorded.exchanges !== derived.exchanges || recorded.cells !== derived.cells) out.push(`${recorded.exchanges} exchanges in ${recorded.cells} cells in the report, ${derived.exchanges} in ${derived.cells} from the record`);
  const was = new Set(recorded.uncovered.map((u) => u.pair));
  const now = new Set(derived.uncovered.map((u) => u.pair));
  const onlyReport = [...was].filter((p) => !now.has(p));
  const onlyRecord = [...now].filter((p) => !was.has(p));
  if (onlyReport.length > 0) out.push(`the report says ${onlyReport.length} pairs were not reached that the record reaches (${onlyReport.slice(0, 3).join('; ')})`);
  if (onlyRecord.length > 0) out.push(`the record does not reach ${onlyRecord.length} pairs the report counts as reached (${onlyRecord.slice(0, 3).join('; ')})`);
  return out;
}

/** The report's Coverage section computed again from the bundle's exchange record, in the order the exchanges were sent. */
export function coverageRederivation(bundle: OpenedBundle): StepResult {
  const read = bundledReport(bundle);
  if ('problem' in read) return { checked: 'coverage not derived: report.json cannot be read', problems: [] };
  const recorded = read.report.coverage;
  if (recorded === undefined) return { checked: 'no Coverage section in the report (a run the preflight ended, or an older release)', problems: [] };
  const context = coverageContextOfReport(read.report);
  const record = exchangeRecord(bundle);
  if (context === undefined || record === undefined) return { checked: 'coverage not derived', problems: [{ file: REPORT_NAME, message: 'the profile or the exchange record is missing: the Coverage section cannot be derived again' }] };
  const exchanges = [...record.bySeq.values()].sort((a, b) => a.seq - b.seq);
  const derived = coverageOf(exchanges, context, { suites: read.report.meta.suites });
  const problems = coverageDifferences(recorded, derived).map((message) => ({ file: REPORT_NAME, message: `Coverage: ${message}` }));
  const triples = derived.triples === undefined ? '' : `, ${derived.triples.covered} of ${derived.triples.total} driven triples`;
  return { checked: `Coverage derived again from ${exchanges.length} recorded exchanges: ${derived.pairs.covered} of ${derived.pairs.total} pairs${triples}`, problems };
}
