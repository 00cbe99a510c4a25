import { isUtcDateTime } from '../contract/utc-date-time.ts';
import { validateComponent } from '../contract/validate.ts';
import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { isObject, jsonBody } from './json-body.ts';
import { poolHeaderProblems } from './pool-headers.ts';
import { judged } from './judged.ts';

export const ROW_SCHEMA = 'ledger/2.1/row-schema';
export const TIMESTAMP_UTC_Z = 'ledger/2.1/timestamp-utc-z';
export const PAGE_SCHEMA = 'ledger/2.2/page-schema';
export const NEXT_CURSOR_PRESENT = 'ledger/2.2/next-cursor-present';
export const RATE_LIMIT_HEADERS = 'ledger/4/rate-limit-headers';

export const PAGE_REQUIREMENTS = [ROW_SCHEMA, TIMESTAMP_UTC_Z, PAGE_SCHEMA, NEXT_CURSOR_PRESENT, RATE_LIMIT_HEADERS] as const;

/** The read pool as the profile states it, for the §8.1 header values. */
export interface ReadPool {
  limit: number;
  windowS: number;
}

type Problems = Record<(typeof PAGE_REQUIREMENTS)[number], string[]>;

function emptyProblems(): Problems {
  return { [ROW_SCHEMA]: [], [TIMESTAMP_UTC_Z]: [], [PAGE_SCHEMA]: [], [NEXT_CURSOR_PRESENT]: [], [RATE_LIMIT_HEADERS]: [] };
}

/** Which requirement a problem of the CreditsOperations schema belongs to, by where it sits. */
function requirementOf(instancePath: string, keyword: string, message: string): (typeof PAGE_REQUIREMENTS)[number] {
  if (keyword === 'format' && /^\/operations\/\d+\/timestamp$/.test(instancePath)) return TIMESTAMP_UTC_Z;
  if (/^\/operations\/\d+/.test(instancePath)) return ROW_SCHEMA;
  if (instancePath === '/next_cursor' || (instancePath === '' && message.includes('next_cursor'))) return NEXT_CURSOR_PRESENT;
  return PAGE_SCHEMA;
}

/** Problems of one 200 answer, by requirement. */
export function pageProblems(exchange: Exchange, pool: ReadPool): Problems {
  const problems = emptyProblems();
  problems[RATE_LIMIT_HEADERS].push(...poolHeaderProblems(exchange, { pool: 'read', limit: pool.limit, windowS: pool.windowS }));
  const body = jsonBody(exchange);
  if (!body.ok) {
    problems[PAGE_SCHEMA].push(body.why);
    return problems;
  }
  for (const p of validateComponent('CreditsOperations', body.value)) {
    const id = requirementOf(p.instancePath, p.keyword, p.message);
    // The timestamp is judged below with the exact words of §2.1, once per row.
    if (id === TIMESTAMP_UTC_Z) continue;
    problems[id].push(`${p.instancePath === '' ? 'the page' : p.instancePath} ${p.message}`);
  }
  const operations = isObject(body.value) ? body.value['operations'] : undefined;
  if (Array.isArray(operations)) {
    operations.forEach((row, i) => {
      const ts = isObject(row) ? row['timestamp'] : undefined;
      // > timestamp | string, date-time | yes | Always output as full ISO 8601 with a trailing `Z`.
      if (typeof ts === 'string' && !isUtcDateTime(ts)) problems[TIMESTAMP_UTC_Z].push(`/operations/${i}/timestamp is ${JSON.stringify(ts)}`);
    });
  }
  return problems;
}

const EXPECTED: Record<(typeof PAGE_REQUIREMENTS)[number], string> = {
  [ROW_SCHEMA]: 'rows with string operation_uuid, operation_type, feature; number credits; object metadata; string timestamp (§2.1)',
  [TIMESTAMP_UTC_Z]: 'every timestamp full ISO 8601 in UTC with a trailing Z, e.g. 2025-01-31T09:30:00Z (§2.1)',
  [PAGE_SCHEMA]: 'a JSON object with an `operations` array (§2.2)',
  [NEXT_CURSOR_PRESENT]: '`next_cursor` present, a string or null (§2.2)',
  [RATE_LIMIT_HEADERS]: 'X-RateLimit-Pool read, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset (§4, §8.1)',
};

/**
 * The §2.1, §2.2 and §4 findings of every 200 answer among `exchanges`: one finding per
 * requirement, failing on the first answer that breaks it (with the first few problems), else
 * passing with one answer as the sample. Other statuses are not pages and are skipped.
 */
export const pageSchemaFindings = judged('ledger-page-schema/pageSchemaFindings', function pageSchemaFindings(exchanges: readonly Exchange[], pool: ReadPool): Finding[] {
  const pages = exchanges.filter((e) => e.response?.status === 200);
  if (pages.length === 0) return PAGE_REQUIREMENTS.map((id) => inconclusive(id, 'no 200 answer of GET /credits/operations to judge', [...exchanges]));
  const firstFailure = new Map<string, { exchange: Exchange; problems: string[]; pages: number }>();
  for (const exchange of pages) {
    const problems = pageProblems(exchange, pool);
    for (const id of PAGE_REQUIREMENTS) {
      if (problems[id].length === 0) continue;
      const seen = firstFailure.get(id);
      if (seen === undefined) firstFailure.set(id, { exchange, problems: problems[id], pages: 1 });
      else seen.pages += 1;
    }
  }
  return PAGE_REQUIREMENTS.map((id) => {
    const f = firstFailure.get(id);
    if (f === undefined) return pass(id, [pages[0]!]);
    const shown = f.problems.slice(0, 5).join('; ') + (f.problems.length > 5 ? `; and ${f.problems.length - 5} more` : '');
    const spread = f.pages > 1 ? ` (${f.pages} of ${pages.length} pages break it)` : '';
    return fail(id, EXPECTED[id], `${shown}${spread}`, [f.exchange]);
  });
});

/** Only the failures, for suites that watch the schema of pages they fetched for another purpose. */
export const pageSchemaFailures = judged('ledger-page-schema/pageSchemaFailures', function pageSchemaFailures(exchanges: readonly Exchange[], pool: ReadPool): Finding[] {
  if (!exchanges.some((e) => e.response?.status === 200)) return [];
  return pageSchemaFindings(exchanges, pool).filter((f) => f.verdict === 'fail');
});
