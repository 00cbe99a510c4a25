import { SecretInReportError } from '../errors.ts';
import { escapeHtml } from './writers/text.ts';

/**
 * The forms a secret could take in a file: as sent, escaped inside a JSON string, escaped for
 * markup, percent-encoded in a URL.
 */
function formsOf(secret: string): Array<{ form: string; text: string }> {
  const forms = [
    { form: 'as is', text: secret },
    { form: 'JSON-escaped', text: JSON.stringify(secret).slice(1, -1) },
    { form: 'markup-escaped', text: escapeHtml(secret) },
    { form: 'percent-encoded', text: encodeURIComponent(secret) },
  ];
  return forms.filter((f, i) => forms.findIndex((g) => g.text === f.text) === i);
}

/**
 * Tokens are redacted when an exchange is recorded; this is the second, independent guard at the
 * last step before a file is written. A file written in pieces is checked piece by piece, each
 * with the end of the piece before: a secret split across two pieces is found too.
 */
export class SecretGuard {
  readonly #fileName: string;
  readonly #forms: Array<{ index: number; form: string; text: string }>;
  /** Characters of the pieces so far that a form could still end in. */
  readonly #overlap: number;
  #tail = '';

  constructor(fileName: string, secrets: readonly string[]) {
    this.#fileName = fileName;
    this.#forms = secrets.flatMap((secret, index) => (secret.length === 0 ? [] : formsOf(secret).map((f) => ({ index, ...f }))));
    this.#overlap = Math.max(0, ...this.#forms.map((f) => f.text.length - 1));
  }

  /** Throws SecretInReportError when the file, up to and with `piece`, holds a secret in any form. */
  check(piece: string): void {
    // The seam on its own: the tail joined to the whole piece would copy the piece.
    const seam = this.#tail + piece.slice(0, this.#overlap);
    for (const { index, form, text } of this.#forms) {
      if (piece.includes(text) || seam.includes(text)) throw new SecretInReportError(this.#fileName, index, form);
    }
    if (this.#overlap === 0) return;
    this.#tail = piece.length >= this.#overlap ? piece.slice(piece.length - this.#overlap) : seam.slice(-this.#overlap);
  }
}
