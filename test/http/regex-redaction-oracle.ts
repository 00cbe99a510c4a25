import { everyFormPattern } from '../../lib/http/secret-forms.ts';

/** What the exact statement of every form (lib/http/secret-forms.ts) finds of the secrets in `text`. */
export function oracleMatches(secrets: readonly string[], text: string): string[] {
  const live = secrets.filter((s) => s.length > 0);
  return live.length === 0 ? [] : [...text.matchAll(everyFormPattern(live))].map((m) => m[0]);
}
