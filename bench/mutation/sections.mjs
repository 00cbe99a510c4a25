// Which spec section a reference file's behaviour answers to, for the report's per-section table.
// First match wins; a file no rule names is reported under "other".
export const SECTION_RULES = [
  [/^ledger-/, '§4.1 ledger'],
  [/^(rate-limiter|pool-charge)\./, '§8.1 rate limits'],
  [/^(auth|tokens)\./, '§5 authentication'],
  [/^(sse-writer|message-stream)\./, '§6 streaming'],
  [/^(message-|job-store\.)/, '§4.3 conversations'],
  [/^(exchange-context|server)\./, '§7 errors'],
  [/^(service-routes|served-openapi)\./, '§4.2 unauthenticated routes'],
];

/** The section of a file under lib/reference (its path relative to the project, with `/`). */
export function sectionOf(path) {
  const name = path.split('/').pop() ?? path;
  for (const [pattern, section] of SECTION_RULES) if (pattern.test(name)) return section;
  return 'other';
}
