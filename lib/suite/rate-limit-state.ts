import type { Probe } from '../checks/rate-limit-retry.ts';
import type { Exchange } from '../model/exchange.ts';
import { BackgroundWriteGate, within } from './background-write-gate.ts';
import { firstRefillOf, runCampaign, type Campaign, type CampaignOutcome } from './rate-limit-campaign.ts';
import { healsAfterRefusalAtMs, probeReadRefusal, probeWriteRefill } from './rate-limit-probes.ts';
import { session } from './session.ts';
import { waitingFor } from './wait-notices.ts';

/**
 * What the rate-limit suites share across files. Suites run in one worker with isolation off,
 * so this module's state lives for the whole run: the exhaustion suite starts the campaign and
 * the timed probes, the suites after it read their results, and the recovery suite at the end
 * waits for whatever is still running. Any of them may come first (a run of one suite, or of one
 * requirement): the first to ask starts the campaign.
 */
interface RateLimitStore {
  campaign?: Promise<CampaignOutcome>;
  probes?: Promise<Probe[] | { failed: string }>;
  /** The read pool's first-refill requests (sent by the probes; complete once they settle). */
  refill: Exchange[];
  /** The same requests, each timed against the latest read 429 before it. */
  refillTimed: Probe[];
  /** The write pool's first-refill POSTs, sent in the background; their ledger rows are in once it resolves. */
  writeRefill?: Promise<Exchange[]>;
  /** The same POSTs, once that promise has resolved. */
  writeRefillDone?: Exchange[];
  /** When the next read probe goes, while one is waiting to (harness ms). */
  nextProbeAtMs?: number;
  /** A drill with the limiter store down, while it runs: no probe goes out before it ends. */
  drill?: Promise<void>;
}

const store: RateLimitStore = { refill: [], refillTimed: [] };

/** Longest a timed probe is held for a drill with the limiter store down. */
const DRILL_HOLD_MS = 30_000;

/** Keeps the write pool's first refill out of the limiter drill's counts of the ledger. */
const writeGate = new BackgroundWriteGate(DRILL_HOLD_MS);

/** The campaign against the secondary token, started on first use; the read probes start with it. */
export function campaign(): Promise<CampaignOutcome> {
  if (store.campaign === undefined) {
    const s = session();
    store.campaign = runCampaign(s);
    store.probes = store.campaign
      .then(async (c): Promise<Probe[] | { failed: string }> => {
        if ('skipped' in c) return { failed: c.skipped };
        if (c.read.refusal === undefined) return { failed: 'the read pool never answered 429' };
        const windowMs = c.limits.windowS * 1000;
        const refill = { ...firstRefillOf(c.read, windowMs), sent: store.refill, timed: store.refillTimed };
        return probeReadRefusal(s, c.read.refusal, windowMs, { nextDue: (atMs) => (store.nextProbeAtMs = atMs), storeUp }, refill);
      })
      .catch((err: unknown) => ({ failed: err instanceof Error ? err.message : String(err) }))
      .finally(() => delete store.nextProbeAtMs);
    // A probe that could not go leaves the replay as it was: it goes on after it all the same.
    store.writeRefill = store.campaign
      .then((c) => ('skipped' in c || 'skipped' in c.write ? [] : probeWriteRefill(s, c.write, c.limits.windowS * 1000, writeGate)))
      .catch((): Exchange[] => [])
      .then((sent) => (store.writeRefillDone = sent))
      .finally(() => writeGate.over());
  }
  return store.campaign;
}

/** The write pool's first-refill POSTs, once they are done and their rows are in the ledger. */
export async function writeRefill(): Promise<Exchange[]> {
  await campaign();
  return store.writeRefill!;
}

/** The write pool's first-refill POSTs when they are done, else undefined (they are still to come). */
export function writeRefillIfDone(): Exchange[] | undefined {
  return store.writeRefillDone;
}

/** The read pool's first-refill requests, once the timed probes are done. */
export async function readRefill(): Promise<Exchange[]> {
  await readProbes();
  return store.refill;
}

/** The read pool's first-refill requests as timed probes of the read 429 before each, once the timed probes are done. */
export async function readRefillTimed(): Promise<Probe[]> {
  await readProbes();
  return store.refillTimed;
}

/** The timed probes of the read refusal; waits for them, which only the recovery suite should need to. */
export async function readProbes(): Promise<Probe[] | { failed: string }> {
  await campaign();
  return store.probes!;
}

/**
 * Runs a drill that takes the limiter store down where no timed probe of the read pool's 429
 * meets it (the probe would read the 503 as no answer of the pool): at once when the next probe
 * is due more than `clearMs` from now (the probes then hold until the drill ends; one the drill
 * overruns goes late, and is judged by when it went), else once the probes are done, which may be
 * most of a window. `prepare` runs just before the store goes down, `conclude` once it is back,
 * with the probes free to go. The ledger may be counted from `prepare` to the end of `conclude`:
 * the write pool's first refill, whose POSTs leave rows, goes wholly before (when it is going or
 * due within `clearMs` once the probes are done) or waits until `conclude` is over.
 */
export async function withLimiterDrill<P, D, R>(
  clearMs: number,
  prepare: () => Promise<P>,
  drill: (prepared: P) => Promise<D>,
  conclude: (prepared: P, drilled: D) => Promise<R>,
): Promise<R> {
  for (;;) {
    const probes = store.probes;
    const settled = probes === undefined ? true : await Promise.race([probes.then(() => true), campaign().then(() => false)]);
    const next = store.nextProbeAtMs;
    const readsNear = !settled && (next === undefined || next - Date.now() < clearMs);
    // Every probe done before the first count: a write refill due while they finish is seen below.
    if (readsNear) await waitForProbes(probes!);
    // Waiting for the write refill lets the read probes come nearer: look at both again.
    if (await writeRefillCleared(clearMs)) continue;
    // No wait from here until the write refill is held, so none can start in between.
    return writeGate.counting(async () => {
      const prepared = await prepare();
      return conclude(prepared, await holdingProbes(() => drill(prepared)));
    });
  }
}

/** Runs `work` while the timed probes hold: one due meanwhile waits until it ends. */
async function holdingProbes<T>(work: () => Promise<T>): Promise<T> {
  let end = (): void => {};
  const running = new Promise<void>((resolve) => (end = resolve));
  store.drill = running;
  try {
    return await work();
  } finally {
    if (store.drill === running) delete store.drill;
    end();
  }
}

/**
 * Waits for the write pool's first refill when its POSTs are going out or due within `clearMs`;
 * true when it waited (the caller looks again), false when the refill is done or far enough off.
 */
async function writeRefillCleared(clearMs: number): Promise<boolean> {
  const refill = writeGate.inTheWay(clearMs);
  if (refill === undefined) return false;
  await waitingFor(session().context.transcriptFile, "the write pool's first refill to finish (the drill counts the ledger)", refill.atMs, refill.done);
  return true;
}

/**
 * Holds a probe while a drill has the limiter store down, up to a bound: a drill cut short by a
 * timeout may never say it ended, and a probe that then meets the store down is sent again.
 */
async function storeUp(): Promise<void> {
  if (store.drill !== undefined) await within(store.drill, DRILL_HOLD_MS);
}

async function waitForProbes(work: Promise<unknown>): Promise<void> {
  const c = await campaign();
  const due = isCampaign(c) ? healsAfterRefusalAtMs(c.read.refusal, c.limits.windowS * 1000) : Date.now();
  await waitingFor(session().context.transcriptFile, "the timed probes of the read pool's 429 to finish (the drill would disturb them)", due, work);
}

export function isCampaign(outcome: CampaignOutcome): outcome is Campaign {
  return !('skipped' in outcome);
}
