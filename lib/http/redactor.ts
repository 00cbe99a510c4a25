/**
 * The single redaction step. Every token value the run knows is replaced by its placeholder
 * (`$ASI_TOKEN`, ...) in anything that is recorded, so that no writer, log or error message
 * downstream can leak one. Placeholders double as shell variables in curl reproductions.
 */
export interface Secret {
  value: string;
  /** Shell form of the variable that holds it, e.g. `$ASI_TOKEN`. */
  placeholder: string;
}

export class Redactor {
  readonly #secrets: Secret[];
  constructor(secrets: Iterable<Secret>) {
    // Longest first, so a token that contains another is replaced whole.
    this.#secrets = [...secrets].filter((s) => s.value.length > 0).sort((a, b) => b.value.length - a.value.length);
  }

  redact(text: string): string {
    let out = text;
    for (const s of this.#secrets) {
      if (out.includes(s.value)) out = out.split(s.value).join(s.placeholder);
    }
    return out;
  }

  redactHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) out[k] = this.redact(v);
    return out;
  }
}
