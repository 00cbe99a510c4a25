import type { Exchange } from '../model/exchange.ts';
import { notRun, pass, type Finding } from '../model/finding.ts';
import { factsOf, type ExchangeFacts, type RecordContext } from './exchange-facts.ts';
import { cellOf, type Invariant, type RecordModel } from './invariant.ts';
import { INVARIANTS } from './registry.ts';
import { RequirementTally } from './tally.ts';

/** One run-wide rule's requirement: the rule that judges it, and its tally. */
interface Judged {
  invariant: Invariant;
  tally: RequirementTally;
}

/**
 * Judges a run's exchange record with the run-wide rules, one exchange at a time (a record may be
 * larger than memory). `chosen` says which requirements the run asked for; the rest are not judged.
 * Pure: the same exchanges in the same order, with the same context, give the same findings.
 */
export class RecordJudge {
  readonly #context: RecordContext;
  readonly #judged = new Map<string, Judged>();
  /** The rules with a requirement to judge, in registry order. */
  readonly #invariants: Invariant[];
  /** The models of the rules that judge across the record, with their rule. */
  readonly #models: Array<{ invariant: Invariant; model: RecordModel }>;
  #judgedModels = false;
  #exchanges = 0;

  constructor(context: RecordContext, chosen: (requirement: string) => boolean = () => true, invariants: readonly Invariant[] = INVARIANTS) {
    this.#context = context;
    for (const invariant of invariants) {
      for (const id of invariant.requirements) if (chosen(id) && !this.#judged.has(id)) this.#judged.set(id, { invariant, tally: new RequirementTally(id) });
    }
    this.#invariants = invariants.filter((i) => i.requirements.some((id) => this.#judged.get(id)?.invariant === i));
    this.#models = this.#invariants.flatMap((invariant) => {
      const model = invariant.model?.(context);
      return model === undefined ? [] : [{ invariant, model }];
    });
  }

  #tally(invariant: Invariant, requirement: string, exchange: Exchange, facts: ExchangeFacts, problems: string[], remark?: string): void {
    const judged = this.#judged.get(requirement);
    if (judged === undefined || judged.invariant !== invariant) return;
    judged.tally.add(exchange, { label: cellOf(facts), route: facts.routeLabel, status: facts.statusLabel ?? 'none' }, problems, remark);
  }

  /** The requirements this judge speaks to. */
  get requirements(): string[] {
    return [...this.#judged.keys()];
  }

  get exchanges(): number {
    return this.#exchanges;
  }

  add(exchange: Exchange): void {
    this.#exchanges += 1;
    const facts = factsOf(exchange, this.#context);
    // A request that got no answer may still have spent a point: the models see it too.
    for (const { model } of this.#models) model.add(exchange, facts);
    if (exchange.response === undefined) return;
    for (const invariant of this.#invariants) {
      for (const o of invariant.observe(exchange, facts, this.#context)) this.#tally(invariant, o.requirement, exchange, facts, o.problems, o.remark);
    }
  }

  findings(): Finding[] {
    if (!this.#judgedModels) {
      this.#judgedModels = true;
      for (const { invariant, model } of this.#models) {
        for (const d of model.observations()) this.#tally(invariant, d.observation.requirement, d.exchange, d.facts, d.observation.problems, d.observation.remark);
      }
    }
    return [...this.#judged.values()].map(({ invariant, tally }) => {
      const id = tally.requirement;
      const unjudged = tally.judged === 0 ? invariant.whenUnjudged?.(id, this.#context) : undefined;
      if (unjudged !== undefined) return unjudged.verdict === 'pass' ? pass(id, [], unjudged.note) : notRun(id, unjudged.note);
      const declared = invariant.declaredCells?.(id, this.#context) ?? [];
      return tally.finding(invariant.expected[id] ?? id, invariant.binds[id] ?? 'exchanges', declared);
    });
  }
}

/** The findings of the run-wide rules over a list of exchanges (tests, and re-derivation of a small record). */
export function judgeExchanges(exchanges: Iterable<Exchange>, context: RecordContext, chosen?: (requirement: string) => boolean): Finding[] {
  const judge = new RecordJudge(context, chosen);
  for (const e of exchanges) judge.add(e);
  return judge.findings();
}
