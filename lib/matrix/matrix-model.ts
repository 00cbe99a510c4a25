import { catalogue } from '../catalogue/index.ts';
import type { SignatureState } from '../certification/verify-bundle.ts';
import type { Area, Level } from '../model/requirement.ts';
import type { Outcome, Report, RequirementVerdict, ResultState, WaiverState } from '../report/report-model.ts';
import { anchorOf } from '../report/writers/html.ts';
import { emptyCounts } from '../report/writers/run-facts.ts';

/**
 * The comparison page's data (matrix.json, schema lib/matrix/matrix.schema.json): requirements as
 * rows in catalogue order, implementations as columns, a cell per verdict linking to the run's
 * evidence, a summary per area, and the requirements on which the implementations disagree.
 */

/**
 * verified: the bundle verifies, its verdicts are the column's. does-not-verify: it was given but
 * fails verification (or is no bundle at all): shown, with why, and no verdict. no-report: the run
 * ended without a report (a profile or token error, an unreachable target). not-started: the matrix
 * was interrupted before this target's turn.
 */
export type ColumnState = 'verified' | 'does-not-verify' | 'no-report' | 'not-started';

export interface MatrixColumn {
  /** Unique among the columns; the key of every cell (a target's name, or one made from the label). */
  id: string;
  /** The column's heading. */
  name: string;
  label?: string;
  version?: string;
  state: ColumnState;
  /** Why a column has no verdicts: the first problem of a bundle that does not verify, how a run without a report ended, or why the preflight ended it. */
  reason?: string;
  /** How many problems verify found, when it found any. */
  problems?: number;
  outcome?: Outcome;
  exitCode?: number;
  certifying?: boolean;
  /** Why the run is no certification, first reason first. */
  notCertifyingBecause?: string[];
  counts?: Record<ResultState, number>;
  /** The harness that made the run, and whether it is this build. */
  harness?: { name: string; version: string; sameBuild: boolean };
  bundle?: {
    /** Where the bundle was found, as given. */
    source: string;
    /** A link to it from the matrix folder, when there is one to click. */
    href?: string;
    form: 'tar.gz' | 'folder';
    /** SHA-256 of the archive, or of manifest.json for a folder. */
    sha256: string;
    signature?: SignatureState;
    keyid?: string;
  };
  run?: { id: string; baseUrl: string; embedded: boolean; startedAt: string; seed: number; suites: string[]; partial: boolean };
  /** Link to the run's report.html from the matrix folder. */
  report?: string;
  /** Other columns that show the same implementation (the same label and version, or the same bundle). */
  duplicateOf?: string[];
}

export interface MatrixCell {
  verdict: RequirementVerdict;
  /** A partial run did not choose it: it is no verdict to compare. */
  unchosen?: true;
  waiver?: WaiverState;
  /** The requirement's row in the run's report.html. */
  href?: string;
}

export interface MatrixRow {
  id: string;
  level: Level;
  area: Area;
  section: string;
  statement: string;
  /** By column id; a column without verdicts has no cell. */
  cells: Record<string, MatrixCell>;
  /** True when two columns judged it differently (pass, warn or fail). */
  disagree: boolean;
}

export interface AreaSummary {
  area: Area;
  requirements: number;
  /** Per column id, the states of its chosen requirements of this area (a waived result as waived). */
  counts: Record<string, Record<ResultState, number>>;
  /** Requirements of this area on which the columns disagree. */
  disagreements: number;
}

export interface Matrix {
  schemaVersion: 1;
  generatedAt: string;
  tool: { name: string; version: string };
  /** runs: certified here from a matrix file; bundles: merged from bundles made elsewhere. */
  source: 'runs' | 'bundles';
  /** The signal that stopped the matrix, when one did. */
  interrupted?: string;
  /** 0 every column conformant (or partial); 1 a column not conformant, or a bundle that does not verify; 3 a column incomplete, refused, unreachable or without a report. */
  exitCode: 0 | 1 | 3;
  columns: MatrixColumn[];
  /** Ids of the requirements on which the columns disagree, in catalogue order. */
  disagreements: string[];
  areas: AreaSummary[];
  requirements: MatrixRow[];
}

/** A column as made from a run or a bundle, with the report its verdicts come from when it verified. */
export interface ColumnInput {
  column: MatrixColumn;
  report?: Report;
}

function cellOf(report: Report, id: string, reportHref: string | undefined): MatrixCell | undefined {
  const r = report.results.find((x) => x.requirement.id === id);
  if (r === undefined) return undefined;
  return {
    verdict: r.verdict,
    ...(r.unchosen === true ? { unchosen: true as const } : {}),
    ...(r.waiver === undefined ? {} : { waiver: r.waiver.state }),
    ...(reportHref === undefined ? {} : { href: `${reportHref}#${anchorOf(id)}` }),
  };
}

/** The verdicts that judge an implementation; not run, inconclusive and uncovered say only that evidence is missing. */
const JUDGED: readonly RequirementVerdict[] = ['pass', 'warn', 'fail'];

/**
 * Judged verdicts that differ between columns: where the spec may be read two ways, or one side is
 * wrong. A requirement a run did not choose, or could not judge (a token it lacked, no answer), is
 * no side of a disagreement.
 */
function disagrees(cells: Record<string, MatrixCell>): boolean {
  const verdicts = new Set(Object.values(cells).filter((c) => c.unchosen !== true && JUDGED.includes(c.verdict)).map((c) => c.verdict));
  return verdicts.size > 1;
}

function cellState(cell: MatrixCell): ResultState {
  return cell.waiver === 'waived' ? 'waived' : cell.verdict;
}

/** Marks columns that show one implementation twice: the same label and version, or the same bundle. */
function markDuplicates(columns: MatrixColumn[]): void {
  const groups = new Map<string, string[]>();
  const add = (key: string, id: string): void => void groups.set(key, [...(groups.get(key) ?? []), id]);
  for (const c of columns) {
    if (c.label !== undefined) add(`label\u0000${c.label}\u0000${c.version ?? ''}`, c.id);
    if (c.bundle !== undefined) add(`bundle\u0000${c.bundle.sha256}`, c.id);
  }
  for (const ids of groups.values()) {
    if (ids.length < 2) continue;
    for (const c of columns) {
      if (!ids.includes(c.id)) continue;
      const others = ids.filter((id) => id !== c.id && !(c.duplicateOf ?? []).includes(id));
      if (others.length > 0) c.duplicateOf = [...(c.duplicateOf ?? []), ...others];
    }
  }
}

export const STATE_LABEL: Record<ColumnState, string> = {
  verified: 'bundle verified',
  'does-not-verify': 'does not verify',
  'no-report': 'no report',
  'not-started': 'not started',
};

/** What a matrix's exit code says, in words. */
export const EXIT_WORDS: Record<Matrix['exitCode'], string> = {
  0: 'every column conformant (or a partial run in which nothing failed)',
  1: 'a column is not conformant, or its bundle does not verify',
  3: 'a column is incomplete, refused at the preflight, unreachable or without a report, or the matrix was interrupted',
};

/** The outcomes of a column that judged what it chose; any other (incomplete, refused, unreachable) leaves the matrix incomplete. */
const JUDGED_OUTCOMES: readonly Outcome[] = ['conformant', 'partial', 'not-conformant'];

/**
 * A definite failure first, as a run puts a failure before what it could not judge: 1 when a
 * column is not conformant or its bundle does not verify; else 3 when one is incomplete, was
 * refused at the preflight (its token, or no ASI server there: exit 2 for its run), unreachable,
 * without a report or never started; else 0. Exit 2 stays the matrix's own usage errors. An
 * interrupted matrix is 3, as an interrupted run is.
 */
export function matrixExitCode(columns: readonly MatrixColumn[], interrupted: string | undefined): 0 | 1 | 3 {
  if (interrupted !== undefined) return 3;
  if (columns.some((c) => c.state === 'does-not-verify' || c.outcome === 'not-conformant')) return 1;
  if (columns.some((c) => c.state !== 'verified' || c.outcome === undefined || !JUDGED_OUTCOMES.includes(c.outcome))) return 3;
  return 0;
}

export interface MatrixMeta {
  source: Matrix['source'];
  tool: Matrix['tool'];
  generatedAt: Date;
  interrupted?: string;
}

/** The matrix from its columns: cells from each verified column's report, areas, disagreements, exit code. */
export function buildMatrix(inputs: readonly ColumnInput[], meta: MatrixMeta): Matrix {
  const columns = inputs.map((i) => i.column);
  markDuplicates(columns);
  const judged = inputs.filter((i) => i.column.state === 'verified' && i.report !== undefined);
  const requirements: MatrixRow[] = catalogue.map((req) => {
    const cells: Record<string, MatrixCell> = {};
    for (const { column, report } of judged) {
      const cell = cellOf(report!, req.id, column.report);
      if (cell !== undefined) cells[column.id] = cell;
    }
    return { id: req.id, level: req.level, area: req.area, section: req.section, statement: req.statement, cells, disagree: disagrees(cells) };
  });
  const areas: AreaSummary[] = [];
  for (const row of requirements) {
    let summary = areas.find((a) => a.area === row.area);
    if (summary === undefined) {
      summary = { area: row.area, requirements: 0, counts: Object.fromEntries(judged.map((j) => [j.column.id, emptyCounts()])), disagreements: 0 };
      areas.push(summary);
    }
    summary.requirements += 1;
    if (row.disagree) summary.disagreements += 1;
    for (const [id, cell] of Object.entries(row.cells)) if (cell.unchosen !== true) summary.counts[id]![cellState(cell)] += 1;
  }
  return {
    schemaVersion: 1,
    generatedAt: meta.generatedAt.toISOString(),
    tool: meta.tool,
    source: meta.source,
    ...(meta.interrupted === undefined ? {} : { interrupted: meta.interrupted }),
    exitCode: matrixExitCode(columns, meta.interrupted),
    columns,
    disagreements: requirements.filter((r) => r.disagree).map((r) => r.id),
    areas,
    requirements,
  };
}
