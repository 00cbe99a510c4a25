import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Report } from '../../lib/report/report-model.ts';
import { runCli } from '../support/cli.ts';
import { referenceTarget, type ReferenceTarget } from '../support/reference-target.ts';

const LIMITS = { read: 200, write: 20, windowS: 5 };
/** The profile's cap, below the default, above the 16 a nearby target gets. */
const CAP = 24;

let target: ReferenceTarget;
beforeAll(async () => {
  // 100 ms before every answer: a target far away.
  target = await referenceTarget(
    { limits: LIMITS, latencyMs: 100 },
    (yaml) => `${yaml}\nlimits: { read: ${LIMITS.read}, write: ${LIMITS.write}, window_s: ${LIMITS.windowS} }\npacing: { max_in_flight: ${CAP} }\n`,
  );
});
afterAll(() => target.close());

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; headers: Array<{ name: string; value: string }> };
  response: { status: number };
}

function byToken(entries: readonly HarEntry[], token: string, method: string): HarEntry[] {
  return entries.filter((e) => e.request.method === method && e.request.headers.some((h) => h.name.toLowerCase() === 'authorization' && h.value === `Bearer ${token}`));
}

/** The most requests of one token and method that were out at the same moment. */
function mostAtOnce(entries: readonly HarEntry[], token: string, method: string): number {
  const edges = byToken(entries, token, method)
    .flatMap((e) => {
      const start = Date.parse(e.startedDateTime);
      return [
        { at: start, step: 1 },
        { at: start + e.time, step: -1 },
      ];
    })
    .sort((a, b) => a.at - b.at || a.step - b.step);
  let now = 0;
  let most = 0;
  for (const edge of edges) {
    now += edge.step;
    most = Math.max(most, now);
  }
  return most;
}

describe('a far target', () => {
  test("gets its pools spent with more requests in flight than a nearby one, never more than the profile allows, the write pool's first points spent beside the read spend, and the refused POSTs replayed as their points come back", async () => {
    const out = mkdtempSync(join(tmpdir(), 'asi-far-'));
    const suites = ['--suite', 'ratelimit-exhaust', '--suite', 'ratelimit-recovery'];
    const r = await runCli(['run', '--config', target.profile, ...suites, '--out', out, '-q'], { env: target.env, timeoutMs: 120_000 });
    expect(r.code, r.stdout).toBe(0);
    const dir = join(out, readdirSync(out)[0]!);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(report.meta.profile).toMatchObject({ pacing: { max_in_flight: CAP } });
    const limitEnforced = report.results.find((x) => x.requirement.id === 'ratelimit/8.1/limit-enforced')!;
    expect(limitEnforced.verdict).toBe('pass');
    const entries = (JSON.parse(readFileSync(join(dir, 'transcript.har'), 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
    const reads = mostAtOnce(entries, '$ASI_TOKEN_2', 'GET');
    const writes = mostAtOnce(entries, '$ASI_TOKEN_2', 'POST');
    expect(reads).toBeGreaterThan(16);
    expect(reads).toBeLessThanOrEqual(CAP);
    expect(writes).toBeGreaterThan(8);
    expect(writes).toBeLessThanOrEqual(CAP);
    // The points the write pool's first POSTs spent come back a round trip or more apart: each
    // replayed POST after the first waits for its own, instead of meeting a 429 and waiting out a
    // Retry-After rounded up to whole seconds.
    expect(report.results.find((x) => x.requirement.id === 'ratelimit/8.1/replay-once')!.verdict).toBe('pass');
    const posts = byToken(entries, '$ASI_TOKEN_2', 'POST');
    // The write pool's first three points (the look and the two POSTs between ledger counts) are
    // spent beside the read pool's spend, before its 429: the replay waits for them to come back.
    const readRefused = Math.min(...byToken(entries, '$ASI_TOKEN_2', 'GET').filter((e) => e.response.status === 429).map((e) => Date.parse(e.startedDateTime)));
    expect(posts.slice(0, 3).map((e) => e.response.status)).toEqual([200, 200, 200]);
    expect(Date.parse(posts[2]!.startedDateTime)).toBeLessThan(readRefused);
    expect(report.results.find((x) => x.requirement.id === 'ratelimit/5.5/per-token')!.verdict).toBe('pass');
    const replayed = posts.slice(posts.findLastIndex((e) => e.response.status === 429) + 1);
    expect(replayed.map((e) => e.response.status)).toEqual([200, 200, 200]);
  }, 150_000);
});
