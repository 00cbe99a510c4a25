import type { Probe } from '../checks/rate-limit-retry.ts';
import { runCampaign, type Campaign, type CampaignOutcome } from './rate-limit-campaign.ts';
import { healsAfterRefusalAtMs, probeReadRefusal } from './rate-limit-probes.ts';
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
  /** Resolves when the read probes' last request goes out, or when they ended without it. */
  lastProbeGoing?: Promise<void>;
}

const store: RateLimitStore = {};

/** The campaign against the secondary token, started on first use; the read probes start with it. */
export function campaign(): Promise<CampaignOutcome> {
  if (store.campaign === undefined) {
    const s = session();
    store.campaign = runCampaign(s);
    let going = (): void => {};
    store.lastProbeGoing = new Promise<void>((resolve) => (going = resolve));
    store.probes = store.campaign
      .then(async (c): Promise<Probe[] | { failed: string }> => {
        if ('skipped' in c) return { failed: c.skipped };
        if (c.read.refusal === undefined) return { failed: 'the read pool never answered 429' };
        return probeReadRefusal(s, c.read.refusal, c.limits.windowS * 1000, going);
      })
      .catch((err: unknown) => ({ failed: err instanceof Error ? err.message : String(err) }))
      .finally(going);
  }
  return store.campaign;
}

/** The timed probes of the read refusal; waits for them, which only the recovery suite should need to. */
export async function readProbes(): Promise<Probe[] | { failed: string }> {
  await campaign();
  return store.probes!;
}

/**
 * Waits for the timed probes of a campaign already under way, and at once when none is: a drill that
 * takes the limiter store down must not run while those probes are out, or they would read its
 * 503s as the pool's answers.
 */
export async function probesSettled(): Promise<void> {
  if (store.probes === undefined) return;
  await waitForProbes(store.probes);
}

/**
 * Waits until the last of those probes goes out (at once when none is under way): what a drill
 * prepares meanwhile (a count of the ledger) is then as fresh as it can be when the probes settle.
 */
export async function lastReadProbeGoing(): Promise<void> {
  if (store.lastProbeGoing === undefined) return;
  await waitForProbes(store.lastProbeGoing);
}

async function waitForProbes(work: Promise<unknown>): Promise<void> {
  const c = await campaign();
  const due = isCampaign(c) ? healsAfterRefusalAtMs(c.read.refusal, c.limits.windowS * 1000) : Date.now();
  await waitingFor(session().context.transcriptFile, "the timed probes of the read pool's 429 to finish (the drill would disturb them)", due, work);
}

export function isCampaign(outcome: CampaignOutcome): outcome is Campaign {
  return !('skipped' in outcome);
}
