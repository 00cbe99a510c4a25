import { describe, inject } from 'vitest';
import { disbelievedHeadersFinding } from '../lib/checks/disbelieved-headers.ts';
import { rollingWindowFinding } from '../lib/checks/rate-limit-counting.ts';
import { replayOnceFinding, type Replay } from '../lib/checks/rate-limit-ledger.ts';
import { refusedChargeFinding, unplannedRefusalsFinding } from '../lib/checks/rate-limit-observations.ts';
import { resetRefillFinding, retryAfterTrueFinding, type Probe } from '../lib/checks/rate-limit-retry.ts';
import { sleepUntil } from '../lib/http/client.ts';
import type { Exchange } from '../lib/model/exchange.ts';
import { inconclusive, notRun, type Finding } from '../lib/model/finding.ts';
import { startOtherWorkspaceRefilledRows, startRefilledRowsBesideReads } from '../lib/suite/exchange-matrix.ts';
import { campaignBudgetMs, type Campaign } from '../lib/suite/rate-limit-campaign.ts';
import { finalRead, finalReadAtMs, healsAfterRefusalAtMs, latestWriteRefusal, readPoolTimed, replayDueAtMs, replayRefusedPosts, retryAfterDueAtMs, type ReplayRun } from '../lib/suite/rate-limit-probes.ts';
import { campaign, isCampaign, readProbes, readRefill, readRefillTimed, writeRefill, writeRefillIfDone } from '../lib/suite/rate-limit-state.ts';
import { requirementTest, type TestKit } from '../lib/suite/requirement-test.ts';
import type { Session } from '../lib/suite/session.ts';
import { waitingFor } from '../lib/suite/wait-notices.ts';

/** Up to a window of waiting, plus the requests around it; the whole campaign first when this suite runs alone. */
const WINDOW_MS = inject('asi').profile.limits.windowS * 1000;
const TIMEOUT = campaignBudgetMs(WINDOW_MS) + WINDOW_MS + 30_000;

/** What this file learns and its later tests read (tests of a file run in order). */
const healed: { probes: Probe[]; refill: Exchange[]; replay?: Replay; final?: Exchange } = { probes: [], refill: [] };

let replaying: Promise<ReplayRun | { skipped: string }> | undefined;

/**
 * The refused message POSTs sent again once the write pool serves again (started once, by
 * whichever test asks first): the replay-once evidence and the write pool's timed probe.
 */
function writeReplay(s: Session, c: Campaign): Promise<ReplayRun | { skipped: string }> {
  replaying ??= (async () => {
    if ('skipped' in c.write) return { skipped: c.write.skipped };
    const write = c.write;
    const windowMs = c.limits.windowS * 1000;
    // After the write pool's first refill, whose rows are in by then: the replay's counts of the
    // ledger see only its own, and its first POST is timed against the refill's 429.
    const refill = await writeRefill();
    await sleepUntil(retryAfterDueAtMs(latestWriteRefusal(write, refill), windowMs));
    const replayed = await replayRefusedPosts(s, write, windowMs, refill);
    // The write pool serves again and the replay's counts are done: the matrix's rows of pools just
    // refilled that spend no read point go now, beside the read pool's last probe.
    startRefilledRowsBesideReads(s);
    return replayed;
  })();
  return replaying;
}

let finalReading: Promise<Exchange> | undefined;

/**
 * The read once every point of the read spend has aged out (started once, after the timed probes
 * of the read pool, beside the replay: a read leaves no row for the replay's counts to see).
 */
function finalReadOnce(s: Session, c: Campaign): Promise<Exchange> {
  const windowMs = c.limits.windowS * 1000;
  finalReading ??= readProbes().then(() => finalRead(s, c.read.charged, windowMs));
  return finalReading;
}

/** A check of the write pool's one probe, kept only when that probe could be judged (the read pool's are the main evidence). */
function judgedOnly(finding: Finding): Finding[] {
  return finding.verdict === 'inconclusive' ? [] : [finding];
}

async function withCampaign(kit: TestKit, body: (c: Campaign) => Promise<Finding[]>): Promise<Finding[]> {
  // The ledger suites are done: the other workspace's rows of its pool just refilled may go when it is back.
  startOtherWorkspaceRefilledRows(kit);
  const outcome = await campaign();
  return isCampaign(outcome) ? body(outcome) : kit.notRun(outcome.skipped);
}

/**
 * Waits for `work`, due about `untilMs`, recording the time as the run waiting for a window to heal
 * and saying what it waits for meanwhile (a progress line at least every 10 s).
 */
async function waited<T>(s: Session, what: string, untilMs: number, work: Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await waitingFor(s.context.transcriptFile, what, untilMs, work);
  } finally {
    s.pacer.noteWait('recovery', Date.now() - started);
  }
}

/** When the write pool has served the replay of its refused POSTs (foreseen while its first refill is still to come). */
function replayDueAt(c: Campaign): number {
  return 'skipped' in c.write ? Date.now() : replayDueAtMs(c.write, c.limits.windowS * 1000, writeRefillIfDone());
}

describe('§8.1 Request rate limits: the exhausted pools heal', () => {
  // > Retry-After | integer | 429 responses only: seconds until the next request will succeed.
  // > X-RateLimit-Reset | integer | Unix timestamp in seconds when the bucket refills.
  requirementTest(
    ['ratelimit/8.1/retry-after-true', 'ratelimit/8.1/reset-refill'],
    "GET /me timed against the read pool's 429 (a second before Retry-After, at Reset, once it has elapsed), and the first message POST once the write pool's 429 said it serves again",
    (kit) =>
      withCampaign(kit, async (c) => {
        const due = Math.max(healsAfterRefusalAtMs(c.read.refusal, c.limits.windowS * 1000, kit.clockWitness()), replayDueAt(c));
        const what = "the exhausted pools to heal: the read pool's 429 probed at Retry-After and Reset, the refused POSTs replayed";
        void finalReadOnce(kit, c);
        const [probes, replay] = await waited(kit, what, due, Promise.all([readProbes(), writeReplay(kit, c)]));
        if ('failed' in probes) return kit.ids.map((id) => inconclusive(id, probes.failed));
        healed.probes = probes;
        healed.refill = await readRefill();
        // The refill's requests are timed against Retry-After and Reset too: sent late (a loaded
        // machine, the limiter drill), the refill can be the only next request after a 429.
        const timed = readPoolTimed(probes, await readRefillTimed());
        // Reset placed as the probes were timed: by the run's best reading of the target's clock.
        const clock = kit.clockWitness();
        const findings = [retryAfterTrueFinding('ratelimit/8.1/retry-after-true', timed), resetRefillFinding('ratelimit/8.1/reset-refill', timed, clock)];
        if ('replay' in replay && replay.probe !== undefined) {
          findings.push(...judgedOnly(retryAfterTrueFinding('ratelimit/8.1/retry-after-true', [replay.probe])), ...judgedOnly(resetRefillFinding('ratelimit/8.1/reset-refill', [replay.probe], clock)));
        }
        return findings;
      }),
    { timeout: TIMEOUT },
  );

  // > A rejected 429 request has done no work, so repeating it is safe, including POST and DELETE.
  requirementTest(
    'ratelimit/8.1/replay-once',
    'the refused message POSTs sent again after Retry-After, the ledger counted before and after',
    (kit) =>
      withCampaign(kit, async (c) => {
        const run = await waited(kit, 'the write pool to heal and the refused POSTs to be replayed', replayDueAt(c), writeReplay(kit, c));
        if ('skipped' in run || 'skipped' in c.write) return [notRun(kit.ids[0]!, 'skipped' in run ? run.skipped : 'no write pool run')];
        healed.replay = run.replay;
        return [replayOnceFinding(kit.ids[0]!, c.write.batch, run.replay)];
      }),
    { timeout: TIMEOUT },
  );

  // The spec does not say whether a refused request consumes a point: reported as observed.
  requirementTest(
    'ratelimit/8.1/refused-consumes-points',
    'GET /me once every point the exhaustion spent has aged out',
    (kit) =>
      withCampaign(kit, async (c) => {
        const history = [...c.read.charged, ...healed.probes.map((p) => p.exchange), ...healed.refill];
        const windowMs = c.limits.windowS * 1000;
        healed.final = await waited(kit, 'every point of the read spend to age out', finalReadAtMs(c.read.charged, windowMs), finalReadOnce(kit, c));
        return [refusedChargeFinding(kit.ids[0]!, history, healed.final, c.limits.read, c.limits.windowS * 1000)];
      }),
    { timeout: TIMEOUT },
  );

  // > Pools refill on a 60-second rolling window and are scoped per API token.
  requirementTest(
    'ratelimit/8.1/rolling-window',
    'every request of the secondary token in this run, counted over any span of one window, per pool',
    (kit) =>
      withCampaign(kit, async (c) => {
        const windowMs = c.limits.windowS * 1000;
        // The looks that found a pool spent by another client count too: every request of the token in this run.
        const reads = [...c.read.stale, ...c.read.charged, ...healed.probes.map((p) => p.exchange), ...healed.refill, ...(healed.final === undefined ? [] : [healed.final])];
        const findings = [rollingWindowFinding(kit.ids[0]!, reads, c.limits.read, windowMs, 'read')];
        if (!('skipped' in c.write)) {
          const writes = [...c.write.stale, ...c.write.charged, ...(await writeRefill()), ...(healed.replay?.finals ?? [])];
          findings.push(rollingWindowFinding(kit.ids[0]!, writes, c.limits.write, windowMs, 'write'));
        }
        return findings;
      }),
    { timeout: TIMEOUT },
  );

  // > Recommended client behaviour: on 429, sleep for `Retry-After` seconds and retry the same request
  requirementTest('ratelimit/8.1/unplanned-429', 'every request the budget service paced during the run', async (kit) => {
    const { byReason } = kit.pacer.stats();
    const absorbed = kit.pacer.unplanned.map((u) => ({ role: u.role, pool: u.pool, retryAfterS: u.retryAfterS, exchange: u.exchange }));
    const waits = { slowDown: byReason['slow-down'], retryAfter: byReason['retry-after'], recovery: byReason.recovery };
    return [
      unplannedRefusalsFinding(kit.ids[0]!, absorbed, waits, kit.pacer.perIpRefusals.length),
      disbelievedHeadersFinding(kit.ids[0]!, kit.pacer.disbelieved, kit.context.profile.limits.windowS),
    ];
  });
});
