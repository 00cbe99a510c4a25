import { describe, expect, test } from 'vitest';
import { ACCEPT_FORM_LIST, ACCEPT_FORMS, acceptFormNamed, asksForStream } from '../../lib/coverage/accept-forms.ts';
import { coverageAllowed, coverageOf, drivenTriples } from '../../lib/coverage/coverage.ts';
import { acceptFormOf, CellReader, tokenKindOf, type CoverageContext } from '../../lib/coverage/exchange-dimensions.ts';
import { exchangePlan, fitLowWrites, type PlannedRow } from '../../lib/coverage/exchange-plan.ts';
import { REQUEST_HEADER_DOMAINS } from '../../lib/domains/request-header-domains.ts';
import type { Exchange } from '../../lib/model/exchange.ts';

const BASE = 'http://127.0.0.1:1/v1';
const CONTEXT: CoverageContext = {
  baseUrl: BASE,
  messages: {
    routes: [{ path: '/deal-agents/da_1/messages', template: '/deal-agents/{agent_id}/messages', body: { message: 'hi' } }],
    async: { body: { async: true }, jobIdPointer: '/job_id', poll: '/message-jobs/{job_id}' },
  },
  limits: { read: 10, write: 5, windowS: 60 },
  roles: ['primary', 'secondary', 'other_workspace', 'revoked', 'expired'],
};

let seq = 0;
function ex(method: string, path: string, status: number, options: { role?: string; authorization?: string; accept?: string; body?: unknown; remaining?: number; resBody?: unknown; at?: number } = {}): Exchange {
  seq += 1;
  const headers: Record<string, string> = {};
  if (options.role !== undefined) headers['authorization'] = `Bearer $ASI_${options.role.toUpperCase()}`;
  if (options.authorization !== undefined) headers['authorization'] = options.authorization;
  if (options.accept !== undefined) headers['accept'] = options.accept;
  const resHeaders: Record<string, string> = {};
  if (options.remaining !== undefined) resHeaders['x-ratelimit-remaining'] = String(options.remaining);
  const body = options.resBody === undefined ? '' : JSON.stringify(options.resBody);
  return {
    seq,
    startedAt: new Date(options.at ?? 1_000_000 + seq).toISOString(),
    request: { method, url: `${BASE}${path}`, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }), ...(options.role === undefined ? {} : { tokenRole: options.role }) },
    response: { status, headers: resHeaders, body, bodyBytes: body.length, truncated: false },
    timings: { totalMs: 1 },
  };
}

describe('tokenKindOf', () => {
  test.each([
    [{}, 'none'],
    [{ authorization: 'Basic dXNlcjpwYXNzd29yZA==' }, 'other scheme'],
    [{ authorization: '$ASI_TOKEN' }, 'other scheme'],
    [{ authorization: 'Bearer' }, 'malformed'],
    [{ authorization: 'Bearer asi_live_zzzz' }, 'malformed'],
    [{ authorization: 'Bearer asi_live_0123abcd' }, 'unknown'],
    [{ authorization: 'bearer $ASI_TOKEN' }, 'valid'],
    [{ role: 'revoked' }, 'revoked'],
    [{ role: 'other_workspace' }, "another workspace's"],
    [{ role: 'secondary' }, 'valid'],
  ])('%j is %s', (options, kind) => {
    expect(tokenKindOf(ex('GET', '/me', 401, options))).toBe(kind);
  });
});

describe('acceptFormOf', () => {
  test.each([
    [undefined, undefined, 'absent'],
    ['*/*', undefined, '*/*'],
    ['Application/JSON', undefined, 'application/json'],
    ['text/event-stream', undefined, 'text/event-stream'],
    ['application/json, text/event-stream', undefined, 'a list'],
    ['text/event-stream; charset=utf-8', undefined, 'a parameter'],
    ['text/event-stream;q=0.5, application/json', undefined, 'a q-value'],
    [undefined, { message: 'hi', stream: true }, 'stream: true'],
    [undefined, { message: 'hi', stream: false }, 'stream: false'],
  ])('Accept %s with body %j is %s', (accept, body, form) => {
    expect(acceptFormOf(ex('POST', '/deal-agents/da_1/messages', 200, { ...(accept === undefined ? {} : { accept }), body }), true)).toBe(form);
  });

  test('a list, a parameter or a q-value the domain does not quote is read by its shape; a single other range is other', () => {
    expect(acceptFormOf(ex('GET', '/me', 200, { accept: 'text/html, */*' }), false)).toBe('a list');
    expect(acceptFormOf(ex('GET', '/me', 200, { accept: 'application/json; charset=utf-8' }), false)).toBe('a parameter');
    expect(acceptFormOf(ex('GET', '/me', 200, { accept: 'application/json;q=0.9' }), false)).toBe('a q-value');
    expect(acceptFormOf(ex('GET', '/me', 200, { accept: 'text/html' }), false)).toBe('other');
  });
});

describe('the Accept forms come from the input domains', () => {
  test("every header:Accept edge, then the stream field's true and false, in the domains' order", () => {
    const accept = REQUEST_HEADER_DOMAINS.find((d) => d.id === 'header:Accept')!;
    expect(ACCEPT_FORMS).toHaveLength(accept.edges.length + 2);
    expect(ACCEPT_FORMS.slice(-2)).toEqual(['stream: true', 'stream: false']);
    expect(ACCEPT_FORM_LIST.filter((f) => f.accept !== undefined).every((f) => accept.edges.some((e) => e.includes(`\`${f.accept!}\``)))).toBe(true);
  });
});

describe('CellReader', () => {
  test('id owners: the profile agent, a job of each workspace, ids never issued', () => {
    const reader = new CellReader(CONTEXT);
    const cells = [
      ex('POST', '/deal-agents/da_1/messages', 202, { role: 'primary', body: { message: 'hi', async: true }, resBody: { job_id: 'j1' }, remaining: 4 }),
      ex('POST', '/deal-agents/da_1/messages', 202, { role: 'other_workspace', body: { message: 'hi', async: true }, resBody: { job_id: 'j2' }, remaining: 4 }),
      ex('GET', '/message-jobs/j1', 200, { role: 'primary', remaining: 9 }),
      ex('GET', '/message-jobs/j2', 404, { role: 'primary' }),
      ex('GET', '/message-jobs/j1', 404, { role: 'other_workspace' }),
      ex('GET', '/message-jobs/nope', 401, {}),
      ex('POST', '/deal-agents/never/messages', 404, { role: 'primary', remaining: 3 }),
      ex('POST', '/deal-agents/da_1/messages', 200, { role: 'other_workspace', remaining: 3 }),
    ].map((e) => reader.read(e));
    expect(cells.map((c) => c?.owner)).toEqual(['own', "another workspace's", 'own', "another workspace's", "another workspace's", 'never issued', 'never issued', "another workspace's"]);
  });

  test('pool states: fresh, low under 10%, spent on a 429 and while the pool said so, just refilled after it', () => {
    const reader = new CellReader(CONTEXT);
    const pools = [
      ex('GET', '/me', 200, { role: 'secondary', remaining: 9, at: 0 }),
      ex('GET', '/me', 200, { role: 'secondary', remaining: 0, at: 1_000 }),
      ex('GET', '/me', 429, { role: 'secondary', remaining: 0, at: 2_000 }),
      ex('PUT', '/me', 405, { role: 'secondary', at: 3_000 }),
      ex('GET', '/me', 404, { role: 'secondary', at: 4_000 }),
      ex('GET', '/me', 200, { role: 'secondary', remaining: 5, at: 62_000 }),
      ex('GET', '/me', 200, { role: 'secondary', remaining: 6, at: 63_000 }),
      ex('GET', '/me', 200, { role: 'secondary', remaining: 9, at: 130_000 }),
      ex('OPTIONS', '/me', 204, { role: 'secondary', at: 130_001 }),
      ex('GET', '/health', 200, { role: 'secondary', at: 130_002 }),
      ex('GET', '/me', 401, { authorization: 'Bearer asi_live_00', at: 130_003 }),
    ].map((e) => reader.read(e)?.pool);
    expect(pools).toEqual(['fresh', 'low', 'spent', 'fresh', 'spent', 'just refilled', 'just refilled', 'fresh', 'no pool', 'no pool', 'no pool']);
  });
});

describe('coverage', () => {
  test('a record holding every row of the plan covers every pair the plan holds', () => {
    const plan = exchangePlan(CONTEXT, 3);
    expect(plan.rows.length).toBeGreaterThan(0);
    const allowed = coverageAllowed(CONTEXT);
    for (const r of plan.rows) expect(allowed(r.cell)).toBe(true);
    // The plan leaves a valid token's low pool to the rate-limit campaign.
    expect(plan.rows.some((r) => r.cell.token === 'valid' && r.cell.pool === 'low')).toBe(false);
  });

  test('strength 3 where no point is spent: the plan holds every route × method × pool-less token kind triple on the routes that need a token, and none of those rows has a pool', () => {
    const triples = drivenTriples(CONTEXT);
    const kinds = new Set(triples.map((t) => t[2]!.value));
    expect([...kinds].sort()).toEqual(['expired', 'malformed', 'none', 'other scheme', 'revoked', 'unknown']);
    expect(triples.some((t) => t[0]!.value === '/health')).toBe(false);
    const plan = exchangePlan(CONTEXT, 3);
    const held = new Set(plan.rows.map((r) => `${r.cell.route} ${r.cell.method} ${r.cell.token}`));
    expect(triples.filter((t) => !held.has(t.map((x) => x.value).join(' ')))).toEqual([]);
    for (const r of plan.rows) if (kinds.has(r.cell.token)) expect(r.cell.pool).toBe('no pool');
    // A triple the rows lack is named in the Coverage section, and reaching it counts.
    const c = coverageOf([], CONTEXT, { suites: ['exchange-matrix'] });
    expect(c.triples).toMatchObject({ total: triples.length, covered: 0 });
    expect(c.triples!.uncovered[0]).toMatch(/^route \/me × method GET × token none$/);
  });

  test("every id owner with every read method on every route with an id, on a valid token's fresh pool, whatever the seed", () => {
    for (const seed of [1, 2, 3, 20261122]) {
      const plan = exchangePlan(CONTEXT, seed);
      const held = new Set(plan.rows.filter((r) => r.cell.token === 'valid' && r.cell.pool === 'fresh').map((r) => `${r.cell.route} ${r.cell.method} ${r.cell.owner}`));
      expect(held.has('/message-jobs/{job_id} HEAD never issued')).toBe(true);
      const allowed = coverageAllowed(CONTEXT);
      for (const route of ['/deal-agents/{agent_id}/messages', '/company-agents/{agent_id}/messages', '/message-jobs/{job_id}']) {
        for (const method of ['GET', 'HEAD']) {
          for (const owner of ['own', "another workspace's", 'never issued']) {
            const reachable = plan.rows.some((r) => allowed({ ...r.cell, route, method, owner, token: 'valid', pool: 'fresh' }));
            if (reachable) expect(held.has(`${route} ${method} ${owner}`), `${route} ${method} ${owner}, seed ${seed}`).toBe(true);
          }
        }
      }
    }
  });

  test("a valid token's pool just refilled (the run's very end) asks no message route for an event stream when the other workspace's rows can hold those pairs", () => {
    const streamed = (r: PlannedRow): boolean => r.cell.method === 'POST' && r.cell.route.includes('/messages') && asksForStream(acceptFormNamed(r.cell.accept));
    const refilledStreams = (rows: readonly PlannedRow[], token: string): PlannedRow[] => rows.filter((r) => r.cell.token === token && r.cell.pool === 'just refilled' && streamed(r));
    const streamForms = ACCEPT_FORM_LIST.filter((f) => asksForStream(f)).map((f) => f.name);
    for (const seed of [1, 2, 3, 20261122]) {
      const { rows } = exchangePlan(CONTEXT, seed);
      expect(refilledStreams(rows, 'valid'), `seed ${seed}`).toEqual([]);
      // The pairs of that pool state with each stream form are still held: by the other workspace's rows.
      for (const form of streamForms) expect(rows.some((r) => r.cell.pool === 'just refilled' && r.cell.accept === form), `${form}, seed ${seed}`).toBe(true);
      expect(refilledStreams(rows, "another workspace's").length, `seed ${seed}`).toBeGreaterThan(0);
    }
    // Without the other workspace's token, a valid token's rows hold them.
    const alone = exchangePlan({ ...CONTEXT, roles: ['primary', 'secondary'] }, 3);
    expect(refilledStreams(alone.rows, 'valid').length).toBeGreaterThan(0);
  });

  test('the uncovered pairs are named with why; values the profile lacks are unavailable, not uncovered', () => {
    const context = { ...CONTEXT, roles: ['primary'] };
    const c = coverageOf([ex('GET', '/me', 200, { role: 'primary', remaining: 9 })], context, { suites: ['auth'] });
    expect(c.exchanges).toBe(1);
    expect(c.pairs.covered).toBe(15);
    expect(c.pairs.total).toBeGreaterThan(c.pairs.covered);
    expect(c.uncovered.length).toBe(c.pairs.total - c.pairs.covered);
    expect(c.uncovered[0]!.reason).toMatch(/exchange-matrix/);
    expect(c.unavailable.map((u) => `${u.dimension} ${u.value}`)).toEqual(['token revoked', 'token expired', "token another workspace's", "owner another workspace's"]);
    expect(c.uncovered.some((u) => u.pair.includes('revoked'))).toBe(false);
    expect(c.dimensions.find((d) => d.name === 'route')!.values.find((v) => v.value === '/me')!.exchanges).toBe(1);
  });

  test('what the constraints allow follows the context: one with fewer roles, then the first again (one process, many runs)', () => {
    const whole = coverageOf([], CONTEXT, { suites: ['exchange-matrix'] });
    const fewer = coverageOf([], { ...CONTEXT, roles: ['primary'] }, { suites: ['exchange-matrix'] });
    expect(fewer.pairs.total).toBeLessThan(whole.pairs.total);
    expect(coverageOf([], { ...CONTEXT }, { suites: ['exchange-matrix'] })).toEqual(whole);
  });
});

describe('fitLowWrites', () => {
  const row = (method: string, accept = 'absent'): PlannedRow => ({
    cell: { route: '/deal-agents/{agent_id}/messages', method, token: "another workspace's", owner: "another workspace's", pool: 'low', accept },
    phase: 'low',
  });

  test('keeps as many low write rows as the pool has points, each method and stream form first; the rest go spent and as a GET on the low read pool', () => {
    const rows = [row('PUT'), row('PUT', '*/*'), row('POST', 'stream: true'), row('DELETE'), row('PATCH'), row('POST', 'stream: false')];
    const fitted = fitLowWrites(rows, 4, coverageAllowed(CONTEXT));
    const low = fitted.filter((r) => r.phase === 'low').map((r) => `${r.cell.method} ${r.cell.accept}`);
    expect(low.sort()).toEqual(['DELETE absent', 'POST stream: false', 'POST stream: true', 'PUT absent']);
    expect(fitted.filter((r) => r.phase === 'spent').map((r) => `${r.cell.method} ${r.cell.accept}`).sort()).toEqual(['PATCH absent', 'PUT */*']);
    // A GET copy keeps the low state's pairs with the route, owner and Accept form.
    expect(fitted.filter((r) => r.phase === 'low-read').map((r) => `${r.cell.method} ${r.cell.accept}`).sort()).toEqual(['GET */*', 'GET absent']);
  });
});
