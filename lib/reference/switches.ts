/**
 * Defect switches break one rule each (for proving that a check can fail); variants take another
 * legal choice where the spec leaves one open (for proving that the harness does not assert it).
 */
export interface DefectSwitch {
  name: string;
  /** Requirement ids this defect must make fail. */
  breaks: string[];
  /** Suites (file basenames or area prefixes) that observe it. */
  suites: string[];
  description: string;
  /** Limits the reference runs with while proving it (short windows for rate-limit defects). */
  limits?: { read?: number; write?: number; windowS?: number };
}

export interface VariantSwitch {
  name: string;
  /** Suites that must still pass with it. */
  suites: string[];
  description: string;
  limits?: { read?: number; write?: number; windowS?: number };
}

/** The set of switches a server runs with; unknown names are refused when the server starts. */
export class SwitchSet {
  readonly #names: Set<string>;
  constructor(names: Iterable<string>) {
    this.#names = new Set(names);
  }
  has(name: string): boolean {
    return this.#names.has(name);
  }
  list(): string[] {
    return [...this.#names];
  }
}
