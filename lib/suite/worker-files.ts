/**
 * Files the suites' worker leaves beside the run's transcript for the main process: the pacer's
 * figures and the mark that the target stopped answering (which fault hooks are on: lib/hooks/fault-state.ts).
 * A module of its own: the main process reads them and must not load vitest's test runtime.
 */
export function pacerStatsFile(transcriptFile: string): string {
  return `${transcriptFile}.pacer.json`;
}

/** Written once, with the reason, when the client gives up on an unresponsive target. */
export function targetDownFile(transcriptFile: string): string {
  return `${transcriptFile}.down`;
}
