import { exchangeLabel } from '../checks/rate-limit-headers.ts';
import type { Exchange } from '../model/exchange.ts';
import { fail, notRun, pass, type Finding } from '../model/finding.ts';
import { plural } from '../model/words.ts';

/** Offending exchanges a finding keeps as evidence: the first few and the last. */
const KEPT_OFFENDERS = 5;
/** Offenders quoted in `actual`. */
const QUOTED_OFFENDERS = 3;
/** Cells named in a note, at most. */
const NAMED_CELLS = 12;

interface Offender {
  exchange: Exchange;
  problems: string[];
}

function named(list: readonly string[]): string {
  const more = list.length - NAMED_CELLS;
  return list.slice(0, NAMED_CELLS).join(', ') + (more > 0 ? `, and ${more} more` : '');
}

/**
 * One requirement's record over a run: how many exchanges it judged, where (cells, routes,
 * statuses), the offenders (kept bounded, counted whole) and remarks. Turns into one finding.
 */
export class RequirementTally {
  readonly requirement: string;
  judged = 0;
  readonly #cells = new Set<string>();
  readonly #routes = new Set<string>();
  readonly #statuses = new Set<string>();
  readonly #offenders: Offender[] = [];
  #lastOffender: Offender | undefined;
  #offending = 0;
  readonly #remarks = new Map<string, number>();
  #sample: Exchange | undefined;

  constructor(requirement: string) {
    this.requirement = requirement;
  }

  add(exchange: Exchange, cell: { label: string; route: string; status: string }, problems: readonly string[], remark?: string): void {
    this.judged += 1;
    this.#cells.add(cell.label);
    this.#routes.add(cell.route);
    this.#statuses.add(cell.status);
    this.#sample ??= exchange;
    if (remark !== undefined) this.#remarks.set(remark, (this.#remarks.get(remark) ?? 0) + 1);
    if (problems.length === 0) return;
    this.#offending += 1;
    const offender = { exchange, problems: [...problems] };
    if (this.#offenders.length < KEPT_OFFENDERS) this.#offenders.push(offender);
    else this.#lastOffender = offender;
  }

  #coverage(declared: readonly string[]): string {
    const where = `judged on ${plural(this.judged, 'exchange')} over ${plural(this.#routes.size, 'route')} and ${plural(this.#statuses.size, 'status', 'statuses')}`;
    const missing = declared.filter((c) => !this.#cells.has(c));
    const remarks = [...this.#remarks].map(([text, n]) => (n === 1 ? text : `${text} (${n} times)`));
    return [where, ...(missing.length === 0 ? [] : [`not reached: ${named(missing)}`]), ...remarks].join('; ');
  }

  finding(expected: string, binds: string, declared: readonly string[] = []): Finding {
    if (this.judged === 0) {
      const where = declared.length === 0 ? '' : ` (the spec names ${named(declared)})`;
      return notRun(this.requirement, `no exchange of this run was one of the ${binds} this rule binds${where}`);
    }
    const note = this.#coverage(declared);
    if (this.#offending === 0) return pass(this.requirement, this.#sample === undefined ? [] : [this.#sample], note);
    const shown = [...this.#offenders, ...(this.#lastOffender === undefined ? [] : [this.#lastOffender])];
    const quoted = shown.slice(0, QUOTED_OFFENDERS).map((o) => `${exchangeLabel(o.exchange)}: ${o.problems.join('; ')}`);
    const more = this.#offending > QUOTED_OFFENDERS ? ` | and ${this.#offending - QUOTED_OFFENDERS} more` : '';
    const actual = `${this.#offending} of ${this.judged} ${binds}: ${quoted.join(' | ')}${more}`;
    return { ...fail(this.requirement, expected, actual, shown.map((o) => o.exchange)), note };
  }
}
