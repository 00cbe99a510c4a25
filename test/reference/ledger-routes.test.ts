import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../lib/reference/server.ts';
import type { ReferenceOptions } from '../../lib/reference/state.ts';

interface Row {
  operation_uuid: string;
  operation_type: string;
  feature: string;
  credits: number;
  metadata: Record<string, unknown>;
  timestamp: string;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: { operations?: Row[]; next_cursor?: string | null; error?: Record<string, unknown> } & Record<string, unknown>;
}

const DAY = 86_400_000;

async function get(ref: RunningReference, query: Record<string, string | number> | string, role = 'primary', method = 'GET'): Promise<Answer> {
  const q = typeof query === 'string' ? query : new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const res = await fetch(`${ref.baseUrl}/credits/operations${q === '' ? '' : `?${q}`}`, { method, headers: { authorization: `Bearer ${ref.tokens[role]}` } });
  const text = await res.text();
  return { status: res.status, headers: Object.fromEntries(res.headers), body: text === '' ? {} : (JSON.parse(text) as Answer['body']) };
}

/** Every row of a query, following the cursors. */
async function walk(ref: RunningReference, query: Record<string, string | number>, role = 'primary'): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 500; i++) {
    const a = await get(ref, cursor === undefined ? query : { ...query, cursor }, role);
    expect(a.status).toBe(200);
    rows.push(...a.body.operations!);
    if (a.body.next_cursor === null) return rows;
    cursor = a.body.next_cursor!;
  }
  throw new Error('walk did not end');
}

function expectRefused(a: Answer, parameter?: string): void {
  expect(a.status).toBe(400);
  expect(a.body.error).toMatchObject({ code: 'request.validation_failed', category: 'permanent' });
  expect(a.body.error?.['request_id']).toBe(a.headers['x-request-id']);
  if (parameter !== undefined) expect(a.body.error?.['details']).toMatchObject({ parameter });
}

/** A fresh reference with the given options, closed afterwards. */
async function withReference(options: ReferenceOptions, body: (r: RunningReference) => Promise<void>): Promise<void> {
  const r = await startReference(options);
  try {
    await body(r);
  } finally {
    await r.close();
  }
}

let ref: RunningReference;
let all: Row[];

beforeAll(async () => {
  ref = await startReference();
  all = await walk(ref, { from: '2000-01-01', to: '2100-01-01', limit: 200 });
});

afterAll(async () => {
  await ref.close();
});

describe('the seeded ledger', () => {
  test('over 1,000 rows across 120 days and several features, newest first by default', () => {
    expect(all.length).toBeGreaterThan(1000);
    const times = all.map((r) => Date.parse(r.timestamp));
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(118 * DAY);
    expect(new Set(all.map((r) => r.feature)).size).toBeGreaterThanOrEqual(5);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(all.map((r) => r.operation_uuid)).size).toBe(all.length);
  });

  test('has rows at UTC midnight, rows sharing a timestamp, rows costing 0 and rows in the last hour', () => {
    expect(all.some((r) => r.timestamp.endsWith('T00:00:00.000Z'))).toBe(true);
    const counts = new Map<string, number>();
    for (const r of all) counts.set(r.timestamp, (counts.get(r.timestamp) ?? 0) + 1);
    expect([...counts.values()].some((n) => n >= 3)).toBe(true);
    expect(all.some((r) => r.credits === 0)).toBe(true);
    expect(all.filter((r) => Date.parse(r.timestamp) > Date.now() - 3_600_000).length).toBeGreaterThanOrEqual(5);
  });

  test('the other workspace has rows of its own', async () => {
    const other = await walk(ref, { from: '2000-01-01', to: '2100-01-01', limit: 200 }, 'other_workspace');
    expect(other.length).toBeGreaterThan(100);
    const mine = new Set(all.map((r) => r.operation_uuid));
    expect(other.some((r) => mine.has(r.operation_uuid))).toBe(false);
  });
});

describe('window rules', () => {
  test('from is inclusive and to exclusive at a timestamp several rows share', async () => {
    const counts = new Map<string, number>();
    for (const r of all) counts.set(r.timestamp, (counts.get(r.timestamp) ?? 0) + 1);
    const [shared] = [...counts.entries()].find(([, n]) => n >= 2)!;
    const starting = await get(ref, { from: shared, to: new Date(Date.parse(shared) + 1).toISOString(), limit: 200 });
    expect(starting.body.operations!.length).toBe(counts.get(shared));
    const ending = await get(ref, { from: new Date(Date.parse(shared) - DAY).toISOString(), to: shared, limit: 200 });
    expect(ending.body.operations!.some((r) => r.timestamp === shared)).toBe(false);
  });

  test('equal bounds are an empty window; to before from is refused', async () => {
    const t = all[10]!.timestamp;
    expect(await get(ref, { from: t, to: t })).toMatchObject({ status: 200, body: { operations: [], next_cursor: null } });
    expectRefused(await get(ref, { from: t, to: new Date(Date.parse(t) - 1).toISOString() }), 'to');
  });

  test('dates, offsets and date-times without offset are read (UTC for the last two)', async () => {
    const byDate = await walk(ref, { from: '2000-01-01', to: '2100-01-01', limit: 200 });
    expect(byDate.length).toBe(all.length);
    const t = Date.parse(all[40]!.timestamp);
    const utc = await get(ref, { from: new Date(t).toISOString(), to: new Date(t + 6 * 3_600_000).toISOString(), limit: 200 });
    const plusFive = new Date(t + 5.5 * 3_600_000).toISOString().replace('Z', '+05:30');
    const plusFiveTo = new Date(t + 11.5 * 3_600_000).toISOString().replace('Z', '+05:30');
    const offset = await get(ref, { from: plusFive, to: plusFiveTo, limit: 200 });
    expect(offset.body.operations).toEqual(utc.body.operations);
    const local = await get(ref, { from: new Date(t).toISOString().replace('Z', ''), to: new Date(t + 6 * 3_600_000).toISOString().replace('Z', ''), limit: 200 });
    expect(local.body.operations).toEqual(utc.body.operations);
  });

  test.each(['2023-02-29', '2025-01-01T25:00:00Z', '2025-01-01T10:00:00+24:00', 'yesterday', '2025/01/01'])('refuses from=%s', async (from) => {
    expectRefused(await get(ref, { from }), 'from');
  });

  test('the default window is the last 30 days', async () => {
    const rows = await walk(ref, { limit: 200 });
    const now = Date.now();
    const expected = all.filter((r) => Date.parse(r.timestamp) >= now - 30 * DAY - 5000 && Date.parse(r.timestamp) < now);
    expect(Math.abs(rows.length - expected.length)).toBeLessThanOrEqual(1);
    expect(rows.every((r) => Date.parse(r.timestamp) >= now - 30 * DAY - 10_000)).toBe(true);
  });

  test('one bound leaves the other side open (the reference choice)', async () => {
    const t = all[500]!.timestamp;
    const after = await walk(ref, { from: t, limit: 200 });
    expect(after.length).toBe(all.filter((r) => r.timestamp >= t).length);
  });
});

describe('limit, feature and cursors', () => {
  test('limit: 1 and 200 accepted, 50 by default, anything else refused', async () => {
    expect((await get(ref, { limit: 1 })).body.operations).toHaveLength(1);
    expect((await get(ref, { from: '2000-01-01', limit: 200 })).body.operations).toHaveLength(200);
    expect((await get(ref, {})).body.operations).toHaveLength(50);
    for (const limit of ['0', '201', '-1', '1.5', 'abc', '1e2', '']) expectRefused(await get(ref, `limit=${limit}`), 'limit');
  });

  test('feature: exact match, length 1 to 64', async () => {
    const rows = await walk(ref, { from: '2000-01-01', feature: 'deal_agent', limit: 200 });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.feature === 'deal_agent')).toBe(true);
    expect(rows.length).toBe(all.filter((r) => r.feature === 'deal_agent').length);
    expect((await get(ref, { feature: 'x' })).status).toBe(200);
    expect((await get(ref, { feature: 'x'.repeat(64) })).status).toBe(200);
    expectRefused(await get(ref, { feature: '' }), 'feature');
    expectRefused(await get(ref, { feature: 'x'.repeat(65) }), 'feature');
  });

  test('a walk at limit 7 lists every row of a window once', async () => {
    const from = all[300]!.timestamp;
    const to = all[100]!.timestamp;
    const rows = await walk(ref, { from, to, limit: 7 });
    const expected = all.filter((r) => r.timestamp >= from && r.timestamp < to);
    expect(rows.map((r) => r.operation_uuid).sort()).toEqual(expected.map((r) => r.operation_uuid).sort());
  });

  test('a cursor is bound to its workspace, its window and its filter, and refuses changes', async () => {
    const q = { from: '2000-01-01', to: '2100-01-01', limit: 2 };
    const cursor = (await get(ref, q)).body.next_cursor!;
    expect((await get(ref, { ...q, cursor })).status).toBe(200);
    expect((await get(ref, { limit: 5, cursor })).status).toBe(200);
    expectRefused(await get(ref, { ...q, cursor }, 'other_workspace'), 'cursor');
    expectRefused(await get(ref, { ...q, from: '2001-01-01', cursor }), 'cursor');
    expectRefused(await get(ref, { ...q, feature: 'deal_agent', cursor }), 'cursor');
    expectRefused(await get(ref, { ...q, cursor: `${cursor}A` }), 'cursor');
    expectRefused(await get(ref, { ...q, cursor: 'not a cursor' }), 'cursor');
  });

  test('a repeated parameter is refused; HEAD answers headers only', async () => {
    expectRefused(await get(ref, 'limit=5&limit=6'), 'limit');
    const head = await get(ref, {}, 'primary', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['x-ratelimit-pool']).toBe('read');
  });
});

describe('variants and a fresh server', () => {

  test.each([
    'ledger-order-ascending',
    'ledger-rows-shuffled',
    'ledger-cursor-server-side',
    'ledger-short-pages',
    'ledger-extra-fields',
    'ledger-cursor-reserved-characters',
    'ledger-page-cap-25',
    'ledger-cursor-single-use',
    'ledger-cursor-json-accepted',
    'ledger-no-ties',
  ])(
    '%s lists the same rows',
    async (variant) => {
      await withReference({ variants: [variant] }, async (r) => {
        const rows = await walk(r, { from: '2000-01-01', to: '2100-01-01', limit: 150 });
        expect(rows.map((x) => x.operation_uuid).sort()).toEqual(all.map((x) => x.operation_uuid).sort());
      });
    },
  );

  test('ledger-no-ties stamps no two rows alike, the seed and rows appended at one instant alike', async () => {
    const stamps = (rows: readonly Row[]): number => new Set(rows.map((x) => Date.parse(x.timestamp))).size;
    // The seeded ledger has groups of rows sharing a timestamp; the variant has none.
    expect(stamps(all)).toBeLessThan(all.length);
    await withReference({ variants: ['ledger-no-ties'] }, async (r) => {
      const now = r.state.now();
      for (let i = 0; i < 3; i++) r.state.ledger.append('ws_1', { operation_type: 'agent_message', feature: 'deal_agent', credits: 1, metadata: {} }, now);
      const rows = await walk(r, { from: '2000-01-01', to: '2100-01-01', limit: 200 });
      expect(rows.length).toBe(all.length + 3);
      expect(stamps(rows)).toBe(rows.length);
    });
  });

  test('ledger-clock-behind: the Date header and the rows stamped now read the server clock, 83.7 s behind', async () => {
    await withReference({ variants: ['ledger-clock-behind'] }, async (r) => {
      const row = r.state.ledger.append('ws_1', { operation_type: 'agent_message', feature: 'deal_agent', credits: 1, metadata: {} }, r.state.now());
      expect(Date.now() - row.at).toBeGreaterThanOrEqual(83_700);
      const res = await get(r, { from: '2000-01-01', to: '2100-01-01', limit: 1 });
      const behind = Date.now() - Date.parse(res.headers['date'] as string);
      // The header has whole seconds: 83.7 s behind reads as 83.7 to 84.7 s, plus however long the
      // answer took to arrive (a loaded machine), never less.
      expect(behind).toBeGreaterThanOrEqual(83_700);
      expect(behind).toBeLessThan(83_700 + 30_000);
    });
  });

  test('ledger-operation-ids-opaque and ledger-timestamps-microseconds change how rows are written, not which', async () => {
    await withReference({ variants: ['ledger-operation-ids-opaque', 'ledger-timestamps-microseconds'] }, async (r) => {
      const rows = await walk(r, { from: '2000-01-01', to: '2100-01-01', limit: 200 });
      expect(rows.length).toBe(all.length);
      for (const x of rows) {
        expect(x.operation_uuid).toMatch(/^op_[0-9a-f]{20}$/);
        expect(x.timestamp).toMatch(/T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
      }
      expect(new Set(rows.map((x) => x.operation_uuid)).size).toBe(rows.length);
      // The same instants as ever, in milliseconds: the last three digits are zeros.
      for (const x of rows) expect(new Date(Date.parse(x.timestamp)).toISOString().replace(/Z$/, '000Z')).toBe(x.timestamp);
    });
  });

  test('an appended row shows in its workspace only', async () => {
    await withReference({}, async (r) => {
      const row = r.state.ledger.append('ws_1', { operation_type: 'agent_message', feature: 'deal_agent', credits: 1, metadata: {} }, r.state.now());
      const recent = await get(r, { from: new Date(Date.now() - 60_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() });
      expect(recent.body.operations!.map((x) => x.operation_uuid)).toContain(row.operation_uuid);
      const theirs = await get(r, { from: new Date(Date.now() - 60_000).toISOString() }, 'other_workspace');
      expect(theirs.body.operations!.map((x) => x.operation_uuid)).not.toContain(row.operation_uuid);
    });
  });

  test('server-side cursors can be passed again', async () => {
    await withReference({ variants: ['ledger-cursor-server-side'] }, async (r) => {
      const q = { from: '2000-01-01', limit: 3 };
      const cursor = (await get(r, q)).body.next_cursor!;
      const once = await get(r, { ...q, cursor });
      const twice = await get(r, { ...q, cursor });
      expect(twice.body.operations).toEqual(once.body.operations);
      expect(twice.body.next_cursor).not.toBe(once.body.next_cursor);
    });
  });
});

describe('the shapes of a staging system', () => {

  test('a ledger of a million generated rows answers any window by index', async () => {
    await withReference({ ledger: { generatedRows: 1_000_000 } }, async (r) => {
      const hour = await walk(r, { from: new Date(Date.now() - 2 * 3_600_000).toISOString(), to: new Date(Date.now() - 3_600_000).toISOString(), limit: 200 });
      // 1,000,000 rows over 30 days: about 1,389 an hour.
      expect(hour.length).toBeGreaterThan(1_300);
      expect(hour.length).toBeLessThan(1_500);
      expect(new Set(hour.map((x) => x.operation_uuid)).size).toBe(hour.length);
      const other = await get(r, { limit: 200 }, 'other_workspace');
      expect(other.body.operations!.some((x) => hour.some((y) => y.operation_uuid === x.operation_uuid))).toBe(false);
    });
  });

  test('a page cap of 25 holds whatever limit says, and next_cursor leads on', async () => {
    await withReference({ variants: ['ledger-page-cap-25'] }, async (r) => {
      const first = await get(r, { from: '2000-01-01', limit: 200 });
      expect(first.body.operations).toHaveLength(25);
      expect(first.body.next_cursor).toEqual(expect.any(String));
    });
  });

  test('background writers add rows while the server runs, and none while a fault is on', async () => {
    await withReference({ variants: ['ledger-background-writers'] }, async (r) => {
      const count = (): number => r.state.ledger.rows('ws_1').length;
      const before = count();
      await new Promise((done) => setTimeout(done, 1200));
      expect(count()).toBeGreaterThan(before);
      r.state.faults.add('limiter_store_down');
      const during = count();
      await new Promise((done) => setTimeout(done, 1200));
      expect(count()).toBe(during);
    });
  });

  test('latency delays every response', async () => {
    await withReference({ variants: ['latency-150ms'] }, async (r) => {
      const started = Date.now();
      expect((await get(r, { limit: 1 })).status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    });
  });
});

describe('switches of cursors, bounds and pages', () => {

  test('bounds are compared as instants; the text-comparing defect gets both ways wrong', async () => {
    // from at +14:00 sorts after to with Z, yet is the earlier instant; from at -12:00 the other way round.
    const crossed = { from: '2025-01-02T10:00:00+14:00', to: '2025-01-01T21:00:00Z' };
    const reversed = { from: '2025-01-01T10:00:00-12:00', to: '2025-01-01T21:00:00Z' };
    expect((await get(ref, crossed)).status).toBe(200);
    expectRefused(await get(ref, reversed), 'to');
    await withReference({ defects: ['ledger-bounds-compared-as-text'] }, async (r) => {
      expectRefused(await get(r, crossed), 'to');
      expect((await get(r, reversed)).status).toBe(200);
    });
  });

  test('the same cursor twice: the same page; valid once (variant): refused; a moving position (defect): the page after', async () => {
    const q = { from: '2000-01-01', to: '2100-01-01', limit: 3 };
    const cursor = (await get(ref, q)).body.next_cursor!;
    expect((await get(ref, { ...q, cursor })).body.operations).toEqual((await get(ref, { ...q, cursor })).body.operations);
    await withReference({ variants: ['ledger-cursor-single-use'] }, async (r) => {
      const c = (await get(r, q)).body.next_cursor!;
      expect((await get(r, { ...q, cursor: c })).status).toBe(200);
      expectRefused(await get(r, { ...q, cursor: c }), 'cursor');
    });
    await withReference({ defects: ['ledger-cursor-replay-advances'] }, async (r) => {
      const c = (await get(r, q)).body.next_cursor!;
      const once = await get(r, { ...q, cursor: c });
      const twice = await get(r, { ...q, cursor: c });
      expect(twice.body.operations!.some((x) => once.body.operations!.some((y) => y.operation_uuid === x.operation_uuid))).toBe(false);
    });
  });

  test('a JSON cursor `{}` starts the listing (variant) and is refused otherwise', async () => {
    const q = { from: '2000-01-01', to: '2100-01-01', limit: 3 };
    expectRefused(await get(ref, { ...q, cursor: '{}' }), 'cursor');
    await withReference({ variants: ['ledger-cursor-json-accepted'] }, async (r) => {
      expect((await get(r, { ...q, cursor: '{}' })).body.operations).toEqual((await get(r, q)).body.operations);
    });
  });

  test('the last page with rows leads to an empty page (defect); the reference says null', async () => {
    const rows = await walk(ref, { from: all[5]!.timestamp, to: all[2]!.timestamp, limit: 200 });
    expect(rows.length).toBeGreaterThan(0);
    expect((await get(ref, { from: all[5]!.timestamp, to: all[2]!.timestamp, limit: 200 })).body.next_cursor).toBeNull();
    await withReference({ defects: ['ledger-cursor-to-empty-page'] }, async (r) => {
      const q = { from: all[5]!.timestamp, to: all[2]!.timestamp, limit: 200 };
      const first = await get(r, q);
      const next = await get(r, { ...q, cursor: first.body.next_cursor! });
      expect(next.body).toMatchObject({ operations: [], next_cursor: null });
    });
  });

  test('bounds dropped after reading them (defects): a date-time without offset, or a date, serves the default window', async () => {
    const t = Date.parse(all[40]!.timestamp);
    const local = { from: new Date(t).toISOString().replace('Z', ''), to: new Date(t + 6 * 3_600_000).toISOString().replace('Z', ''), limit: 200 };
    const dates = { from: '2000-01-01', to: '2100-01-01', limit: 200 };
    await withReference({ defects: ['ledger-offsetless-ignored', 'ledger-date-only-ignored'] }, async (r) => {
      const byDefault = await walk(r, { limit: 200 });
      expect((await walk(r, local)).map((x) => x.operation_uuid)).toEqual(byDefault.map((x) => x.operation_uuid));
      expect((await walk(r, dates)).length).toBe(byDefault.length);
      // One side dropped leaves that side open.
      const half = await walk(r, { from: new Date(t).toISOString(), to: '2100-01-01', limit: 200 });
      expect(half.length).toBe(all.filter((x) => Date.parse(x.timestamp) >= t).length);
    });
  });

  test('a filter over a window refused, or failing over dates (defects); unbounded without bounds (defect)', async () => {
    await withReference({ defects: ['ledger-feature-window-400'] }, async (r) => {
      expectRefused(await get(r, { from: '2000-01-01', to: '2100-01-01', feature: 'deal_agent' }), 'feature');
      expect((await get(r, { feature: 'deal_agent' })).status).toBe(200);
    });
    await withReference({ defects: ['ledger-feature-date-window-500'] }, async (r) => {
      expect((await get(r, { from: '2000-01-01', to: '2100-01-01', feature: 'deal_agent' })).status).toBe(500);
      expect((await get(r, { from: '2000-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z', feature: 'deal_agent' })).status).toBe(200);
    });
    await withReference({ defects: ['ledger-feature-unbounded-default'] }, async (r) => {
      const rows = await walk(r, { feature: 'deal_agent', limit: 200 });
      expect(rows.length).toBe(all.filter((x) => x.feature === 'deal_agent').length);
      expect(rows.some((x) => Date.parse(x.timestamp) < Date.now() - 31 * DAY)).toBe(true);
    });
  });

  test('an empty feature read as no filter, and a default page of 20 (defects)', async () => {
    await withReference({ defects: ['ledger-feature-empty-ignored', 'ledger-default-limit-20'] }, async (r) => {
      const unfiltered = await get(r, 'feature=');
      expect(unfiltered.status).toBe(200);
      expect(new Set(unfiltered.body.operations!.map((x) => x.feature)).size).toBeGreaterThan(1);
      expect(unfiltered.body.operations).toHaveLength(20);
      expect((await get(r, { limit: 50 })).body.operations).toHaveLength(50);
    });
  });

  test('without limit, the defect moves the cursor past rows it never served', async () => {
    const q = { from: '2000-01-01', to: '2100-01-01' };
    await withReference({ defects: ['ledger-default-limit-cursor-skips'] }, async (r) => {
      const rows = await walk(r, q);
      expect(rows.length).toBeLessThan(all.length);
      expect((await walk(r, { ...q, limit: 50 })).length).toBe(all.length);
    });
  });
});

describe('the edges of the query domains', () => {
  const from = '2000-01-01T00:00:00';
  const to = '2100-01-01T00:00:00';

  test('the reference reads -00:00, lower-case letters, ±23:59, twelve digits, lower-case hex and : unencoded; refuses a raw + and a repeated parameter', async () => {
    expect((await get(ref, { from: `${from}-00:00`, to: `${to}Z` })).status).toBe(200);
    expect((await get(ref, { from: `${from.replace('T', 't')}z`, to: `${to}+23:59`, limit: 1 })).status).toBe(200);
    expect((await get(ref, { from: `${from}.000000000001-23:59`, to: `${to}Z` })).status).toBe(200);
    expect((await get(ref, `from=2000-01-01T00%3a00%3a00%2b01%3a00&to=2100-01-01T00:00:00Z`)).status).toBe(200);
    expectRefused(await get(ref, `from=2000-01-01T00:00:00+01:00&to=2100-01-01T00:00:00Z`), 'from');
    expectRefused(await get(ref, 'limit=5&limit=7'), 'limit');
  });

  test('feature length in code points: 64 two-byte letters pass, 65 astral ones do not', async () => {
    expect((await get(ref, { feature: 'é'.repeat(64) })).status).toBe(200);
    expectRefused(await get(ref, { feature: '😀'.repeat(65) }), 'feature');
  });

  test('defects refuse -00:00, fractions past three digits, lower-case hex and lower-case letters; one measures feature encoded', async () => {
    await withReference({ defects: ['ledger-negative-zero-offset-rejected'] }, async (r) => expectRefused(await get(r, { from: `${from}-00:00`, to: `${to}Z` }), 'from'));
    await withReference({ defects: ['ledger-fraction-milliseconds-only'] }, async (r) => {
      expect((await get(r, { from: `${from}.000Z`, to: `${to}Z` })).status).toBe(200);
      expect((await get(r, { from: `${from}.5Z`, to: `${to}Z` })).status).toBe(200);
      expectRefused(await get(r, { from: `${from}.000001Z`, to: `${to}Z` }), 'from');
    });
    await withReference({ defects: ['ledger-percent-hex-upper-case-only'] }, async (r) => {
      expect((await get(r, `from=2000-01-01T00%3A00%3A00Z&to=2100-01-01T00:00:00Z`)).status).toBe(200);
      expectRefused(await get(r, `from=2000-01-01T00%3a00%3a00Z&to=2100-01-01T00:00:00Z`), 'from');
    });
    await withReference({ defects: ['ledger-bounds-upper-case-only'] }, async (r) => expectRefused(await get(r, { from: `${from}z`, to: `${to}Z` }), 'from'));
    await withReference({ defects: ['ledger-feature-length-encoded'] }, async (r) => {
      expect((await get(r, { feature: 'f'.repeat(64) })).status).toBe(200);
      expectRefused(await get(r, { feature: '😀'.repeat(16) }), 'feature');
    });
  });

  test('variants take the last of a repeated parameter, count UTF-16 units or bytes, read limit leniently and a raw + as a plus', async () => {
    await withReference({ variants: ['ledger-repeated-parameters-last'] }, async (r) => expect((await get(r, 'from=2000-01-01&limit=5&limit=7')).body.operations).toHaveLength(7));
    await withReference({ variants: ['ledger-feature-length-utf16'] }, async (r) => {
      expect((await get(r, { feature: '😀'.repeat(32) })).status).toBe(200);
      expectRefused(await get(r, { feature: '😀'.repeat(33) }), 'feature');
    });
    await withReference({ variants: ['ledger-feature-length-bytes'] }, async (r) => {
      expect((await get(r, { feature: 'é'.repeat(32) })).status).toBe(200);
      expectRefused(await get(r, { feature: 'é'.repeat(33) }), 'feature');
    });
    await withReference({ variants: ['ledger-limit-lenient'] }, async (r) => {
      for (const limit of ['007', '+5', '5.0', '1e1', ' 5 ']) expect((await get(r, { from: '2000-01-01', limit })).status, limit).toBe(200);
      expectRefused(await get(r, { limit: '0.0' }), 'limit');
    });
    await withReference({ variants: ['ledger-query-plus-literal'] }, async (r) => expect((await get(r, `from=2000-01-01T00:00:00+01:00&to=2100-01-01T00:00:00Z`)).status).toBe(200));
  });
});
