import type { Secret } from './redactor.ts';

/**
 * The placeholders the redactor leaves in a record (`$ASI_TOKEN`, `$ASI_TOKEN_2`, a header's
 * `$GATEWAY_KEY`), found and filled again for a request sent a second time. A placeholder is
 * written as itself or percent-encoded (`%24ASI_TOKEN`, from a query built after redaction), and
 * is one only when no character of a longer name follows: `$ASI_TOKEN_2` is not `$ASI_TOKEN`.
 */

/** The name of a placeholder (`ASI_TOKEN` of `$ASI_TOKEN`), or undefined for text that is none. */
export function placeholderName(text: string): string | undefined {
  return /^\$([A-Za-z_][A-Za-z0-9_]*)$/.exec(text)?.[1];
}

/** Every written form of one placeholder, as a global regular expression. */
function formsOf(name: string): RegExp {
  return new RegExp(`(\\$|%24)${name}(?![A-Za-z0-9_])`, 'g');
}

/**
 * The placeholders of `known` that `text` holds, in the order of `known`. The recorded token
 * family `$ASI_TOKEN...` counts as known whatever else is given: a bundle names its variables.
 */
export function placeholdersIn(text: string, known: Iterable<string>): string[] {
  const names = new Set<string>();
  for (const p of known) {
    const name = placeholderName(p);
    if (name !== undefined) names.add(name);
  }
  for (const m of text.matchAll(/(?:\$|%24)(ASI_TOKEN[A-Za-z0-9_]*)/g)) names.add(m[1]!);
  return [...names].filter((n) => formsOf(n).test(text)).map((n) => `$${n}`);
}

/** Every placeholder of a secret in `text` replaced by the secret (percent-encoded where the placeholder was), for the wire only. */
export function withSecrets(text: string, secrets: readonly Secret[]): string {
  let out = text;
  for (const s of secrets) {
    const name = placeholderName(s.placeholder);
    if (name === undefined) continue;
    out = out.replace(formsOf(name), (_m, mark: string) => (mark === '$' ? s.value : encodeURIComponent(s.value)));
  }
  return out;
}
