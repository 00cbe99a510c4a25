import { FAULT_NAMES, type ResolvedProfile } from '../profile/resolved-profile.ts';

const URL_IN_TEXT = /\bhttps?:\/\/[^\s'"`<>|;&()]+/g;

/** A command as the hook's shell would see it: "${BASE_URL}" and "$ORIGIN" read as the run's values. */
function expanded(command: string, baseUrl: string): string {
  const values: Record<string, string> = { BASE_URL: baseUrl, ORIGIN: new URL(baseUrl).origin };
  return command.replace(/\$\{(BASE_URL|ORIGIN)\}|\$(BASE_URL|ORIGIN)\b/g, (_m, a: string | undefined, b: string | undefined) => values[a ?? b ?? ''] ?? '');
}

/**
 * Notes for the preflight: hook commands that name a URL on another host (or port) than the
 * target's. A note, not an error: a hook may rightly call an operations API elsewhere (a feature
 * flag service, an orchestrator), which the harness cannot tell from a hook left pointing at
 * another environment (a profile written for one server, run with --base-url against another),
 * whose drill would switch the wrong server's fault and fail the target's MUSTs.
 */
export function hookHostNotes(profile: ResolvedProfile): string[] {
  const target = new URL(profile.baseUrl);
  const elsewhere = new Map<string, string[]>();
  for (const name of FAULT_NAMES) {
    const hook = profile.faults[name];
    if (hook === undefined) continue;
    for (const which of ['enable', 'disable'] as const) {
      for (const [text] of expanded(hook[which], profile.baseUrl).matchAll(URL_IN_TEXT)) {
        let url: URL;
        try {
          url = new URL(text);
        } catch {
          continue;
        }
        if (url.host === target.host) continue;
        const keys = elsewhere.get(url.origin) ?? [];
        if (!keys.includes(`faults.${name}.${which}`)) keys.push(`faults.${name}.${which}`);
        elsewhere.set(url.origin, keys);
      }
    }
  }
  return [...elsewhere].map(
    ([origin, keys]) =>
      `${keys.join(', ')} ${keys.length === 1 ? 'names' : 'name'} ${origin}, not the target's ${target.origin}: if that is where its faults are switched, fine; if not, the drills switch another server's faults (write "\${BASE_URL}" or "\${ORIGIN}" in the hook for the run's own)`,
  );
}
