/**
 * One reason a bundle does not verify: the file it is in, the requirement it concerns when there
 * is one, and what differs, in words (ajv style: errors are data, printed one per line).
 */
export interface VerifyProblem {
  /** The bundle file the problem was found in (`report.json`, `record/exchanges.jsonl`, `manifest.json`). */
  file: string;
  requirement?: string;
  message: string;
  /** The bundle files the problem was derived from, when it compares a file with what follows from others. */
  from?: string[];
  /**
   * The files changed after the run (their digests do not match the manifest) that this problem
   * follows from: it is a consequence of that change, its own file is as the run wrote it.
   */
  consequenceOf?: string[];
}

/** What one step of the re-derivation checked, and what it found wrong. */
export interface StepResult {
  /** One line saying what was checked, for the verdict block (`103 verdicts re-derived from their findings`). */
  checked: string;
  problems: VerifyProblem[];
}

/** A value in a problem message: JSON, cut to a readable length. */
export function shown(value: unknown, max = 80): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value) ?? String(value);
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
