import { createHash, randomBytes } from 'node:crypto';

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

/** A UUID (version 4 layout) derived from a name, so that a seeded ledger is the same on every start. */
export function uuidFromName(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The credit-operations ledger of each workspace. Seeding lives in ledger-seed.ts. */
export class LedgerStore {
  readonly #rows = new Map<string, StoredOperation[]>();
  readonly #counters = new Map<string, number>();
  /** Signs cursors; new on every start, so a cursor never outlives the server that issued it. */
  readonly cursorSecret: Buffer = randomBytes(32);

  rows(workspace: string): readonly StoredOperation[] {
    return this.#rows.get(workspace) ?? [];
  }

  workspaces(): string[] {
    return [...this.#rows.keys()];
  }

  /** Appends a row (a message's side effect, or the seed), stamped `at`. */
  append(workspace: string, op: NewOperation, at: number): StoredOperation {
    const n = (this.#counters.get(workspace) ?? 0) + 1;
    this.#counters.set(workspace, n);
    const row: StoredOperation = { ...op, operation_uuid: uuidFromName(`asi-reference-ledger:${workspace}:${n}`), at };
    const list = this.#rows.get(workspace) ?? [];
    list.push(row);
    this.#rows.set(workspace, list);
    return row;
  }
}
