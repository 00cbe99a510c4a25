import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_TOKEN_ENV, TOKEN_ROLES } from '../../lib/profile/profile-file.ts';
import { startReference, type RunningReference } from '../../lib/reference/server.ts';
import type { ReferenceOptions } from '../../lib/reference/state.ts';
import { ROOT } from './cli.ts';

export interface ReferenceTarget {
  reference: RunningReference;
  /** A profile file pointing at it (config/reference.yaml with its base_url; the hooks follow the run's base_url). */
  profile: string;
  /** The demo tokens as the conventional variables a user exports. */
  env: Record<string, string>;
  dir: string;
  close(): Promise<void>;
}

/**
 * A reference started in this process, seen by the CLI as any vendor's server is: through a
 * profile file and token variables, never as the embedded target.
 */
export async function referenceTarget(options: ReferenceOptions = {}, edit: (yaml: string) => string = (y) => y): Promise<ReferenceTarget> {
  const reference = await startReference(options);
  const dir = mkdtempSync(join(tmpdir(), 'asi-target-'));
  // Hook commands as YAML (JSON) strings, so that a test can edit them whole.
  const yaml = readFileSync(join(ROOT, 'config', 'reference.yaml'), 'utf8')
    .replace('http://127.0.0.1:8787/v1', reference.baseUrl)
    .replace(/^(\s+(?:enable|disable): )(.*)$/gm, (_m, key: string, command: string) => `${key}${JSON.stringify(command)}`);
  const profile = join(dir, 'profile.yaml');
  writeFileSync(profile, edit(yaml));
  const env: Record<string, string> = {};
  for (const role of TOKEN_ROLES) {
    const value = reference.tokens[role];
    if (value !== undefined) env[DEFAULT_TOKEN_ENV[role]] = value;
  }
  return { reference, profile, env, dir, close: () => reference.close() };
}
