/** A ledger row as the reference stores it; `at` is Unix ms, rendered as ISO 8601 with `Z` on output. */
export interface StoredOperation {
  operation_uuid: string;
  operation_type: string;
  feature: string;
  credits: number;
  metadata: Record<string, unknown>;
  at: number;
}

export type NewOperation = Omit<StoredOperation, 'operation_uuid' | 'at'>;

/** The credit-operations ledger of each workspace. Seeding lives with the ledger routes. */
export class LedgerStore {
  readonly #rows = new Map<string, StoredOperation[]>();
  #counter = 0;

  rows(workspace: string): readonly StoredOperation[] {
    return this.#rows.get(workspace) ?? [];
  }

  /** Appends a row (a message's side effect), stamped `at`. */
  append(workspace: string, op: NewOperation, at: number): StoredOperation {
    const row: StoredOperation = { ...op, operation_uuid: `op_${workspace}_live_${(++this.#counter).toString(16).padStart(8, '0')}`, at };
    const list = this.#rows.get(workspace) ?? [];
    list.push(row);
    this.#rows.set(workspace, list);
    return row;
  }
}
