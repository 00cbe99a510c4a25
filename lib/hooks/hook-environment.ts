import { delimiter, join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.ts';

/** The folder of bin/asi-conformance: first on a hook's PATH. */
const OWN_BIN = join(PACKAGE_ROOT, 'bin');

/**
 * The environment a fault hook runs in: the harness's own, plus
 * - `BASE_URL`: the run's base_url as resolved (a `--base-url` flag overrides the profile's), and
 *   `ORIGIN`, its scheme, host and port. One profile serves several environments: a hook written
 *   with "${BASE_URL}" switches the fault of the target under test, not the one the profile named.
 *   The shell expands them, so quoting works as anywhere in sh ("$BASE_URL").
 * - this package's bin/ first on PATH, where `asi-conformance` (bin/asi-conformance) runs the
 *   harness that runs the hook: a profile's `asi-conformance fault ...` works from a clone, a
 *   local or global install and the container alike, without npx (which may ask a registry).
 */
export function hookEnvironment(baseUrl: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const path = env['PATH'];
  return {
    ...env,
    BASE_URL: baseUrl,
    ORIGIN: new URL(baseUrl).origin,
    PATH: path === undefined || path === '' ? OWN_BIN : `${OWN_BIN}${delimiter}${path}`,
  };
}
