import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Report } from '../../lib/report/report-model.ts';
import { runCli } from '../support/cli.ts';
import { referenceTarget, type ReferenceTarget } from '../support/reference-target.ts';

/**
 * A window long enough that the exhaustion's first timed probe of the read pool's 429 (due about
 * two seconds before the window heals) is more than the drill's 12 s clearance away when the drill
 * starts, even on a loaded machine (it starts about 5 s in), and short enough for a self-test.
 */
const LIMITS = { read: 300, write: 60, windowS: 26 };
/** The drill's disable hook takes this long, so the store is still down when that probe comes due. */
const DISABLE_SECONDS = 22;

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string };
  response: { status: number };
  _asi: { tokenRole?: string };
}

let target: ReferenceTarget;
let report: Report;
let entries: HarEntry[];
let code: number | null;
let output: string;

beforeAll(async () => {
  target = await referenceTarget({ limits: LIMITS }, (yaml) =>
    `${yaml.replace(/(limiter_store_down:\n\s+enable: .*\n\s+disable: )"(.*)"/, `$1"sleep ${DISABLE_SECONDS} && $2"`)}\nlimits: { read: ${LIMITS.read}, write: ${LIMITS.write}, window_s: ${LIMITS.windowS} }\n`,
  );
  const out = mkdtempSync(join(tmpdir(), 'asi-drill-'));
  const r = await runCli(['run', '--config', target.profile, '--suite', 'ratelimit', '-q', '--out', out], { env: target.env, timeoutMs: 120_000 });
  code = r.code;
  output = r.stdout + r.stderr;
  const dir = join(out, readdirSync(out)[0]!);
  report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  entries = (JSON.parse(readFileSync(join(dir, 'transcript.har'), 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
}, 150_000);
afterAll(() => target?.close());

const at = (e: HarEntry): number => Date.parse(e.startedDateTime);

/**
 * The limiter drill takes the store down between the timed probes of the exhaustion's read 429
 * instead of after them (most of a window later), and a probe that comes due meanwhile waits for
 * the store to be back: no probe reads the drill's 503 as its pool's answer.
 */
describe('the limiter drill between the timed probes', () => {
  test('goes long before the read pool heals, holds the probe that comes due while the store is down, and every check passes', () => {
    expect(code, output).toBe(0);
    const notPassed = report.results.filter((r) => !['pass', 'warn', 'not-run'].includes(r.verdict)).map((r) => `${r.requirement.id}: ${r.verdict} ${r.reason ?? ''}`);
    expect(notPassed).toEqual([]);
    const first = at(entries[0]!);
    const storeDown = entries.filter((e) => e.response.status === 503);
    expect(storeDown.length).toBeGreaterThan(5);
    // Sent in the first half of the window after the read pool's first 429, not once the pool
    // healed a window later (timed from the exhaustion, which a loaded machine stretches).
    const readRefused = Math.min(...entries.filter((e) => e._asi.tokenRole === 'secondary' && e.request.method === 'GET' && e.response.status === 429).map(at));
    expect(at(storeDown[0]!)).toBeGreaterThan(first);
    expect(at(storeDown[0]!) - readRefused).toBeLessThan((LIMITS.windowS * 1000) / 2);
    // The store is back once the drill's GET /me after the disable is served.
    const lastDown = Math.max(...storeDown.map(at));
    const back = entries.find((e) => at(e) > lastDown && e._asi.tokenRole === 'primary' && e.request.url.endsWith('/me') && e.response.status === 200)!;
    expect(at(back) - at(storeDown[0]!)).toBeGreaterThan((DISABLE_SECONDS - 1) * 1000);
    // Nothing of the exhausted token went while the store was down, though a probe came due then.
    const secondary = entries.filter((e) => e._asi.tokenRole === 'secondary');
    expect(secondary.filter((e) => e.response.status === 503)).toEqual([]);
    expect(secondary.filter((e) => at(e) >= at(storeDown[0]!) && at(e) < at(back))).toEqual([]);
    const probes = secondary.filter((e) => at(e) >= at(back) && e.request.method === 'GET');
    expect(probes.length).toBeGreaterThan(0);
    for (const id of ['ratelimit/8.1/retry-after-true', 'ratelimit/8.1/reset-refill', 'ratelimit/7/limiter-down-503', 'ratelimit/7/limiter-down-fail-closed']) {
      expect(report.results.find((r) => r.requirement.id === id)?.verdict, id).toBe('pass');
    }
  });
});
