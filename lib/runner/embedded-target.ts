import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.ts';
import { loadProfileFile } from '../profile/load-profile.ts';
import { DEFAULT_TOKEN_ENV, TOKEN_ROLES } from '../profile/profile-file.ts';
import { resolveProfile, type ResolvedTarget } from '../profile/resolve-profile.ts';
import type { RunningReference } from '../reference/server.ts';

export const REFERENCE_PROFILE = join(PACKAGE_ROOT, 'config', 'reference.yaml');

/**
 * The profile of config/reference.yaml pointed at an in-process reference: its base_url (the
 * hooks follow it: they are given the run's base_url, lib/hooks/hook-environment.ts), the demo
 * tokens standing in for the environment (so reports still say `$ASI_TOKEN`), and the limits it
 * runs with.
 */
export function embeddedTarget(reference: RunningReference): ResolvedTarget {
  const raw = loadProfileFile(REFERENCE_PROFILE);
  raw.base_url = reference.baseUrl;
  const { read, write, windowS } = reference.state.limits;
  raw.limits = { read, write, window_s: windowS };
  const env: NodeJS.ProcessEnv = {};
  for (const role of TOKEN_ROLES) {
    const value = reference.tokens[role];
    if (value !== undefined) env[DEFAULT_TOKEN_ENV[role]] = value;
  }
  const target = resolveProfile('embedded reference', raw, env);
  target.profile.source = 'embedded reference (config/reference.yaml)';
  return target;
}
