/**
 * Where the suites' worker leaves the pacer's figures for the report, beside the transcript.
 * A module of its own: the main process reads it and must not load vitest's test runtime.
 */
export function pacerStatsFile(transcriptFile: string): string {
  return `${transcriptFile}.pacer.json`;
}
