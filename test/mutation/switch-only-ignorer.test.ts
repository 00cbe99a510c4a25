import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../support/cli.ts';
// @ts-expect-error: a plain ESM script of the bench, without types
import { instrumentedMutants } from '../../bench/mutation/count-mutants.mjs';
// @ts-expect-error: as above
import { FRAMING_OFF_FLAGS, LEDGER_OFF_FLAGS, switchOnlyIgnorerOf, switchOnlyProperties } from '../../bench/mutation/switch-only-ignorer.mjs';

/**
 * bench/mutation/switch-only-ignorer.mjs leaves out code only a defect or variant switch reaches,
 * and keeps the rest: judged on a made-up file by Stryker's own instrumenter.
 */

const SOURCE = [
  /* 1 */ 'export function send(ctx, status, b) {',
  /* 2 */ "  if (ctx.state.defects.has('some-defect')) return status + 1;",
  /* 3 */ "  const kind = ctx.state.variants.has('some-variant') ? 'other' : 'plain';",
  /* 4 */ "  if (status === 404 && !ctx.state.defects.has('keeps-404')) status = status - 4;",
  /* 5 */ '  if (b.extraFields && status > 200) shuffled([status]);',
  /* 6 */ "  return kind + 'x' + (b.defaultLimit > 10 ? status : 0);",
  /* 7 */ '}',
  /* 8 */ 'function shuffled(list) {',
  /* 9 */ '  return list.slice().reverse();',
  /* 10 */ '}',
  /* 11 */ 'export function max(state) {',
  /* 12 */ "  const offByOne = state.defects.has('off-by-one');",
  /* 13 */ '  return offByOne ? 64 - 1 : 60 + 4;',
  /* 14 */ '}',
  /* 15 */ 'class Plain {',
  /* 16 */ '  spend(n) { return n - 1; }',
  /* 17 */ '  spendTwice(n) { return n - 2; }',
  /* 18 */ '}',
  /* 19 */ 'class Wrong {',
  /* 20 */ '  spend(n) { return n + 1; }',
  /* 21 */ '}',
  /* 22 */ 'class Other {',
  /* 23 */ '  spend(n) { return n * 2; }',
  /* 24 */ '}',
  /* 25 */ "const TABLE = { 'some-defect': Other };",
  /* 26 */ 'export function limiter(state) {',
  /* 27 */ "  for (const name of Object.keys(TABLE)) if (state.defects.has(name)) return new TABLE[name]();",
  /* 28 */ "  const l = state.defects.has('wrong') ? new Wrong() : new Plain();",
  /* 29 */ "  return state.variants.has('twice') ? l.spendTwice(1) : l.spend(1);",
  /* 30 */ '}',
  /* 31 */ 'export class Writer {',
  /* 32 */ '  #framing;',
  /* 33 */ '  constructor(framing) { this.#framing = framing; }',
  /* 34 */ "  event(text) { return (this.#framing.comments ? ': ' + 'keepalive' : '') + text + this.#framing.lineEnd; }",
  /* 35 */ "  data(framing, json) { return framing.multilineData ? json + '\\n' : json; }",
  /* 36 */ '}',
  /* 37 */ 'export function reply(ctx, status) {',
  /* 38 */ '  const routeError = status === 404 || status === 405;',
  /* 39 */ "  const code = routeError && ctx.state.defects.has('empty-code') ? '' : 'not_found';",
  /* 40 */ '  const unauthorized = status === 401;',
  /* 41 */ "  return unauthorized ? code : code + '!';",
  /* 42 */ '}',
  /* 43 */ 'export function quirksOf(b) {',
  /* 44 */ '  return { rejectLocal: b.extraFields, strict: b.defaultLimit > 10 };',
  /* 45 */ '}',
  /* 46 */ 'export function bound(quirks, form) {',
  /* 47 */ "  if (form === 'local' && quirks.rejectLocal === true) return 'refused';",
  /* 48 */ "  return quirks.strict ? form + '!' : form;",
  /* 49 */ '}',
].join('\n');

type Mutant = { line: number; ignored: boolean };

async function mutantsByLine(): Promise<Map<number, { kept: number; ignored: number }>> {
  const mutants = (await instrumentedMutants([{ name: 'made-up.js', content: SOURCE }], [switchOnlyIgnorerOf([{ name: 'made-up.js', content: SOURCE }])])) as Mutant[];
  const byLine = new Map<number, { kept: number; ignored: number }>();
  for (const m of mutants) {
    const c = byLine.get(m.line) ?? { kept: 0, ignored: 0 };
    if (m.ignored) c.ignored++;
    else c.kept++;
    byLine.set(m.line, c);
  }
  return byLine;
}

describe('switch-only ignorer', () => {
  test('the ledger flags it treats as switches are those false with every switch off', () => {
    expect(LEDGER_OFF_FLAGS.has('extraFields')).toBe(true);
    expect(LEDGER_OFF_FLAGS.has('defaultLimit')).toBe(false);
    expect(FRAMING_OFF_FLAGS.has('comments')).toBe(true);
    expect(FRAMING_OFF_FLAGS.has('lineEnd')).toBe(false);
  });

  test('leaves out switch tests, what they alone open, and functions only they call; keeps the rest', async () => {
    const byLine = await mutantsByLine();
    // A defect's `if` and its consequent: nothing to run.
    expect(byLine.get(2)).toMatchObject({ kept: 0 });
    // The variant's arm of `?:` is left out, the arm every run takes is kept.
    expect(byLine.get(3)?.ignored).toBeGreaterThan(0);
    expect(byLine.get(3)?.kept).toBeGreaterThan(0);
    // A negated switch is true with every switch off: the behaviour it guards is kept.
    expect(byLine.get(4)?.kept).toBeGreaterThan(0);
    // A ledger flag that is off by default gates the line, and the function only it calls.
    expect(byLine.get(5)).toMatchObject({ kept: 0 });
    expect(byLine.get(9)).toMatchObject({ kept: 0 });
    // A ledger value that is not a switch flag is behaviour.
    expect(byLine.get(6)).toMatchObject({ ignored: 0 });
    // A const set to a switch test is one: its arm is left out, the other arm kept.
    expect(byLine.get(13)?.ignored).toBeGreaterThan(0);
    expect(byLine.get(13)?.kept).toBeGreaterThan(0);
  });

  test('leaves out classes and methods that only switch code uses, and the values of a table of switches', async () => {
    const byLine = await mutantsByLine();
    // Constructed every run, and its method called every run: kept.
    expect(byLine.get(16)).toMatchObject({ ignored: 0 });
    // A method only a variant's arm calls.
    expect(byLine.get(17)).toMatchObject({ kept: 0 });
    // A class only a defect's arm constructs.
    expect(byLine.get(20)).toMatchObject({ kept: 0 });
    // A class listed only in a table whose keys alone are read outside switch code.
    expect(byLine.get(23)).toMatchObject({ kept: 0 });
  });

  test('leaves out a const only switch code reads, and what a switch-only property opens; keeps the rest', async () => {
    const byLine = await mutantsByLine();
    // `routeError` is read only beside a defect's test: its value changes nothing with every switch off.
    expect(byLine.get(38)).toMatchObject({ kept: 0 });
    // Read by behaviour every run takes: kept.
    expect(byLine.get(40)).toMatchObject({ ignored: 0 });
    // `rejectLocal` is only ever written from a switch flag: the branch it opens is left out.
    expect(byLine.get(47)).toMatchObject({ kept: 0 });
    // `strict` is written from a value every run has: kept.
    expect(byLine.get(48)).toMatchObject({ ignored: 0 });
  });

  test("the switch-only properties of the reference are its switches' flags and quirks, each named here", () => {
    const dir = join(ROOT, 'lib/reference');
    const files = readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts') && !f.startsWith('defects/'))
      .map((f) => ({ name: `lib/reference/${f}`, content: readFileSync(join(dir, f), 'utf8') }));
    const names = [...(switchOnlyProperties(files) as Set<string>)];
    // Judged by name: a name an input also carries (a body's `stream`, a query's `limit`) must never be here.
    for (const input of ['stream', 'limit', 'feature', 'cursor', 'from', 'to', 'order', 'message', 'status']) expect(names).not.toContain(input);
    for (const quirk of ['rejectLocal', 'ignoreOffset', 'skipTies', 'distinctInstants', 'extraFields', 'ids']) expect(names).toContain(quirk);
  });

  test('leaves out what a framing flag off by default opens, keeps what every stream writes', async () => {
    const byLine = await mutantsByLine();
    // `this.#framing.comments ? ': ' + 'keepalive' : ''`: the comment arm is left out, the rest kept.
    expect(byLine.get(34)?.ignored).toBeGreaterThan(0);
    expect(byLine.get(34)?.kept).toBeGreaterThan(0);
    // `framing.multilineData ? ... : json`: the same for a framing passed as a parameter.
    expect(byLine.get(35)?.ignored).toBeGreaterThan(0);
  });
});
