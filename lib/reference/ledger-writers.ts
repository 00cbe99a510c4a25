import type { ReferenceState } from './state.ts';

/** Writers per workspace and the mean pause between two rows of one writer. */
const WRITERS: ReadonlyArray<{ workspace: string; count: number; meanPauseMs: number }> = [
  { workspace: 'ws_1', count: 3, meanPauseMs: 300 },
  { workspace: 'ws_2', count: 1, meanPauseMs: 1000 },
];

const KINDS = [
  { feature: 'deal_agent', operation_type: 'agent_message' },
  { feature: 'company_agent', operation_type: 'agent_message' },
  { feature: 'enrichment', operation_type: 'enrichment_lookup' },
  { feature: 'web_research', operation_type: 'research_query' },
] as const;

/**
 * Other clients of a staging system: while the server runs, writers append real rows stamped with
 * its clock (about ten a second in ws_1, one in ws_2), so every walk of the harness runs while the
 * ledger grows. They are clients of the same service: while a fault is on (the limiter store down,
 * an upstream or the spend cap) their requests fail like anyone's and add nothing. Returns the
 * function that stops them.
 */
export function startBackgroundWriters(state: ReferenceState): () => void {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const schedule = (workspace: string, writer: number, meanPauseMs: number): void => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const kind = KINDS[Math.floor(Math.random() * KINDS.length)]!;
      if (state.faults.size === 0) state.ledger.append(workspace, { ...kind, credits: 1, metadata: { writer } }, state.now());
      schedule(workspace, writer, meanPauseMs);
    }, Math.round(meanPauseMs * (0.25 + 1.5 * Math.random())));
    timer.unref();
    timers.add(timer);
  };
  for (const w of WRITERS) for (let i = 0; i < w.count; i++) schedule(w.workspace, i + 1, w.meanPauseMs);
  return () => {
    stopped = true;
    for (const t of timers) clearTimeout(t);
    timers.clear();
  };
}
