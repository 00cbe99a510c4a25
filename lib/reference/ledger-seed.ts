import type { GeneratedKind } from './ledger-generated.ts';
import type { LedgerStore, NewOperation } from './ledger-store.ts';
import { seededRandom } from '../seeded-random.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** How far back the seeded ledger reaches. */
export const SEED_DAYS = 120;

interface FeatureKind {
  feature: string;
  operationType: string;
  weight: number;
  metadata: (pick: <T>(list: readonly T[]) => T) => Record<string, unknown>;
}

// `deal_agent` is a prefix of `deal_agent_batch` on purpose: a filter must match the whole name.
const WORKSPACE_1_FEATURES: readonly FeatureKind[] = [
  { feature: 'deal_agent', operationType: 'agent_message', weight: 5, metadata: (p) => ({ agent_id: 'da_1', model: p(['m-large', 'm-small']) }) },
  { feature: 'deal_agent_batch', operationType: 'batch_run', weight: 1, metadata: (p) => ({ batch_size: p([5, 10, 25]) }) },
  { feature: 'company_agent', operationType: 'agent_message', weight: 4, metadata: () => ({ agent_id: 'ca_1' }) },
  { feature: 'enrichment', operationType: 'enrichment_lookup', weight: 3, metadata: (p) => ({ provider: p(['registry', 'web']), fields: p([3, 7, 12]) }) },
  { feature: 'web_research', operationType: 'research_query', weight: 2, metadata: (p) => ({ pages: p([1, 4, 9]) }) },
  { feature: 'email_drafting', operationType: 'draft', weight: 2, metadata: () => ({}) },
  { feature: 'task_generation', operationType: 'task_create', weight: 1, metadata: (p) => ({ tasks: p([1, 2, 3]), source: 'agent' }) },
];

const WORKSPACE_2_FEATURES: readonly FeatureKind[] = [
  { feature: 'company_agent', operationType: 'agent_message', weight: 3, metadata: () => ({ agent_id: 'ca_9' }) },
  { feature: 'enrichment', operationType: 'enrichment_lookup', weight: 2, metadata: () => ({ provider: 'registry' }) },
  { feature: 'web_research', operationType: 'research_query', weight: 1, metadata: () => ({ pages: 2 }) },
];

// Zero appears often: a row that consumed nothing is still a row.
const CREDITS = [0, 0, 0.25, 0.5, 1, 1, 1, 2, 2.5, 3, 5, 8, 12.75] as const;

interface WorkspacePlan {
  workspace: string;
  seed: number;
  features: readonly FeatureKind[];
  /** Rows per day: min and spread. */
  perDay: [number, number];
  /** Every n-th day opens with a row at exactly 00:00:00.000Z. */
  midnightEvery: number;
  /** Every n-th day holds a group of rows sharing one timestamp. */
  tieEvery: number;
  /** Minutes before the seed instant of the rows of the last hour. */
  lastHour: readonly number[];
}

const PLANS: readonly WorkspacePlan[] = [
  { workspace: 'ws_1', seed: 0x5eed0001, features: WORKSPACE_1_FEATURES, perDay: [7, 5], midnightEvery: 3, tieEvery: 4, lastHour: [58, 47, 33, 33, 21, 12, 5, 2] },
  { workspace: 'ws_2', seed: 0x5eed0002, features: WORKSPACE_2_FEATURES, perDay: [2, 3], midnightEvery: 5, tieEvery: 7, lastHour: [40, 9] },
];

/**
 * Lays out the deterministic seeded ledger of both demo workspaces against `seedNow`: over 1,000
 * rows in workspace ws_1 across 120 days and seven features, with rows exactly at UTC midnight,
 * groups of rows sharing a timestamp, rows that cost 0 credits and rows in the last hour; and
 * workspace ws_2 with rows of its own. Every row lies before `seedNow`.
 */
export function seedWorkspaces(store: LedgerStore, seedNow: number, options: { longFeatures?: boolean; recentBatch?: number } = {}): void {
  for (const plan of PLANS) seedWorkspace(store, options.longFeatures === true ? withLongFeatures(plan) : plan, seedNow);
  seedRecentBatch(store, seedNow, options.recentBatch ?? 0);
}

/** Minutes before the seed instant of the batch import of variant `ledger-recent-batch-import`. */
const RECENT_BATCH_MINUTES = 20;

/**
 * Variant `ledger-recent-batch-import`: `rows` rows of one import in ws_1, all stamped at one
 * instant 20 minutes back, so that every recent window holding the batch lists far more rows than
 * a known window may hold, and only a few rows (the last hour's) come after it. §2.1 does not limit
 * how many rows share a timestamp.
 */
function seedRecentBatch(store: LedgerStore, seedNow: number, rows: number): void {
  const random = seededRandom(0x5eedba7c);
  const at = seedNow - RECENT_BATCH_MINUTES * MINUTE_MS;
  for (let i = 0; i < rows; i++) {
    store.append('ws_1', { operation_type: 'enrichment_lookup', feature: 'enrichment', credits: CREDITS[Math.floor(random() * CREDITS.length)]!, metadata: { provider: 'import', batch_row: i } }, at);
  }
}

/**
 * Variant `ledger-long-features`: two features renamed beyond what a filter can name (§2.1 gives a
 * row's feature no length; §8.3 bounds the filter to 1 to 64), 70 ASCII characters and 44
 * characters that are 74 UTF-8 bytes, and made the most frequent, where the suites look first.
 */
const LONG_FEATURES: Readonly<Record<string, string>> = {
  enrichment: 'enrichment_of_company_records_from_the_public_registers_and_the_web_v2',
  web_research: `recherche_web_${'é'.repeat(30)}`,
};

function withLongFeatures(plan: WorkspacePlan): WorkspacePlan {
  const top = Math.max(...plan.features.map((f) => f.weight));
  return { ...plan, features: plan.features.map((f) => (LONG_FEATURES[f.feature] === undefined ? f : { ...f, feature: LONG_FEATURES[f.feature]!, weight: 2 * top })) };
}

function seedWorkspace(store: LedgerStore, plan: WorkspacePlan, seedNow: number): void {
  const random = seededRandom(plan.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const totalWeight = plan.features.reduce((n, f) => n + f.weight, 0);
  const kind = (): FeatureKind => {
    let r = random() * totalWeight;
    for (const f of plan.features) {
      r -= f.weight;
      if (r < 0) return f;
    }
    return plan.features[0]!;
  };
  const operation = (): NewOperation => {
    const k = kind();
    return { operation_type: k.operationType, feature: k.feature, credits: pick(CREDITS), metadata: k.metadata(pick) };
  };
  // Half of the rows fall on whole seconds, the others carry milliseconds.
  const instantIn = (start: number, span: number): number => {
    const at = start + Math.floor(random() * span);
    return random() < 0.5 ? at - (at % 1000) : at;
  };
  const oldest = seedNow - SEED_DAYS * DAY_MS;
  const today = seedNow - (seedNow % DAY_MS);
  const planned: number[] = [];
  for (let d = 0; d <= SEED_DAYS; d++) {
    const dayStart = today - d * DAY_MS;
    if (d % plan.midnightEvery === 1) planned.push(dayStart);
    const count = plan.perDay[0] + Math.floor(random() * plan.perDay[1]);
    for (let i = 0; i < count; i++) planned.push(instantIn(dayStart, DAY_MS));
    if (d % plan.tieEvery === 2) {
      const at = instantIn(dayStart, DAY_MS);
      const size = 2 + Math.floor(random() * 3);
      for (let i = 0; i < size; i++) planned.push(at);
    }
  }
  for (const minutes of plan.lastHour) planned.push(seedNow - minutes * MINUTE_MS);
  for (const at of planned) {
    if (at >= seedNow || at < oldest) continue;
    store.append(plan.workspace, operation(), at);
  }
}

/** How far back the generated rows of a busy ledger reach: the default window's 30 days. */
const GENERATED_DAYS = 30;

function generatedKinds(features: readonly FeatureKind[]): GeneratedKind[] {
  return features.map((f) => ({ feature: f.feature, operationType: f.operationType, weight: f.weight }));
}

/**
 * A busy ledger on top of the seeded one: `rows` rows over the 30 days before `seedNow` in
 * workspace ws_1 and a tenth of that in ws_2, generated lazily (lib/reference/ledger-generated.ts).
 */
export function generateWorkspaces(store: LedgerStore, seedNow: number, rows: number): void {
  if (rows <= 0) return;
  for (const plan of PLANS) {
    const count = plan.workspace === 'ws_1' ? rows : Math.ceil(rows / 10);
    store.generate({ workspace: plan.workspace, count, endMs: seedNow, spanMs: GENERATED_DAYS * DAY_MS, kinds: generatedKinds(plan.features) });
  }
}
