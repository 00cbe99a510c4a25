import { describe, expect, test } from 'vitest';
import { compareInstants, parseRfc3339, readBound } from '../../lib/checks/ledger-instant.ts';
import { rowOf } from '../../lib/checks/ledger-page.ts';
import type { QueryModel } from '../../lib/checks/ledger-query-model.ts';
import { BOUND_FORMS, coveringQueries, firstValidTo, querySpaceOf, validFromCount } from '../../lib/checks/ledger-query-space.ts';
import { row } from './ledger-fixtures.ts';

const at = (text: string) => parseRfc3339(text)!;

/** A row every `stepH` hours for `days` days from 2025-02-01, features alternating. */
function modelOf(days: number, stepH: number): QueryModel {
  const start = Date.parse('2025-02-01T00:30:00Z');
  const rows = Array.from({ length: Math.floor((days * 24) / stepH) }, (_, i) =>
    rowOf(row(i + 1, { timestamp: new Date(start + i * stepH * 3_600_000).toISOString().replace('.000Z', 'Z'), feature: i % 3 === 0 ? 'enrichment' : 'deal_agent' })),
  );
  return { regions: [{ from: rows[0]!.instant!, to: rows[rows.length - 1]!.instant!, rows }], clockOffsetMs: 0 };
}

/** A window valid in every reading: the latest reading of from before the earliest of to. */
function validInEveryReading(from: string, to: string): boolean {
  const f = readBound(from);
  const t = readBound(to);
  return f !== undefined && t !== undefined && compareInstants(f.latest, t.earliest) < 0;
}

describe('querySpaceOf', () => {
  test('ten days of rows: every pair of forms, dates on the midnights inside, features by frequency', () => {
    const space = querySpaceOf(modelOf(10, 3), { defaultWindow: true });
    expect(space.pairs).toHaveLength(16);
    expect(space.instants.date.map((d) => d.seconds % 86_400)).toEqual(Array(9).fill(0));
    expect(space.features).toEqual(['deal_agent', 'enrichment']);
  });

  test('an hour of rows (a busy ledger): only the forms with an instant of their own make a window valid in every zone', () => {
    const space = querySpaceOf(modelOf(1 / 24, 0.1), { defaultWindow: false });
    expect(space.pairs).toEqual([
      ['z', 'z'],
      ['z', 'offset'],
      ['offset', 'z'],
      ['offset', 'offset'],
    ]);
  });

  test('a `to` without offset comes more than 14 hours after an exact from (read at UTC+14), and more than 26 after one without offset', () => {
    const space = querySpaceOf(modelOf(10, 1), { defaultWindow: false });
    const from = at('2025-02-03T00:30:00Z');
    expect(space.instants.offsetless[firstValidTo(space, 'z', 'offsetless', from)]).toEqual(at('2025-02-03T15:30:00Z'));
    expect(space.instants.offsetless[firstValidTo(space, 'offsetless', 'offsetless', from)]).toEqual(at('2025-02-04T03:30:00Z'));
    const last = space.instants.z.length;
    expect(validFromCount(space, 'z', 'z')).toBe(last - 1);
    expect(validFromCount(space, 'date', 'date')).toBeLessThan(space.instants.date.length - 1);
  });
});

describe('coveringQueries', () => {
  const model = modelOf(10, 3);
  const space = querySpaceOf(model, { defaultWindow: true });
  const queries = coveringQueries(space, model);
  const formOf = (text: string | undefined) => (text === undefined ? 'none' : readBound(text)!.form);

  test('one window per pair of forms, each bound alone in each form, and four default windows, each valid in every reading', () => {
    expect(queries).toHaveLength(28);
    const alone = queries.filter((q) => (q.from === undefined) !== (q.to === undefined));
    expect(new Set(alone.map((q) => (q.from === undefined ? `to ${formOf(q.to)}` : `from ${formOf(q.from)}`))).size).toBe(8);
    const bounded = queries.filter((q) => q.from !== undefined && q.to !== undefined);
    expect(new Set(bounded.map((q) => `${formOf(q.from)} ${formOf(q.to)}`)).size).toBe(16);
    for (const q of bounded) expect(validInEveryReading(q.from!, q.to!), `${q.from} ${q.to}`).toBe(true);
  });

  test('pairwise: every form on either side, and the default window, meets feature and limit both ways, and the two meet in all four', () => {
    const cells = (side: 'from' | 'to') => new Set(queries.map((q) => `${formOf(q[side])} ${q.feature !== undefined} ${q.limit !== undefined}`.split(' ')).flatMap(([f, a, b]) => [`${f} feature ${a}`, `${f} limit ${b}`]));
    for (const side of ['from', 'to'] as const) {
      for (const f of [...BOUND_FORMS, 'none']) for (const x of ['feature true', 'feature false', 'limit true', 'limit false']) expect(cells(side).has(`${f} ${x}`), `${side} ${f} ${x}`).toBe(true);
    }
    expect(new Set(queries.map((q) => `${q.feature !== undefined} ${q.limit !== undefined}`)).size).toBe(4);
  });

  test('a covering window holds rows of its feature in every reading, where the known rows allow', () => {
    const bounded = queries.filter((q) => q.from !== undefined && q.to !== undefined);
    for (const q of bounded) {
      const f = readBound(q.from!)!;
      const t = readBound(q.to!)!;
      const held = model.regions[0]!.rows.filter((r) => compareInstants(r.instant!, f.latest) >= 0 && compareInstants(r.instant!, t.earliest) < 0 && (q.feature === undefined || r.feature === q.feature));
      expect(held.length, `${q.from} ${q.to} ${q.feature ?? ''}`).toBeGreaterThanOrEqual(2);
    }
  });
});
