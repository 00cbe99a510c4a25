import { describe, expect, test } from 'vitest';
import { hookOutcome, runHook } from '../../lib/hooks/hook-command.ts';
import { hookEnvironment } from '../../lib/hooks/hook-environment.ts';

describe('hookEnvironment', () => {
  test('BASE_URL and ORIGIN are the run\'s, whatever the environment holds', () => {
    const env = hookEnvironment('http://127.0.0.1:40123/v1', { BASE_URL: 'https://production.example.com/v1', ORIGIN: 'x', PATH: '/usr/bin' });
    expect(env['BASE_URL']).toBe('http://127.0.0.1:40123/v1');
    expect(env['ORIGIN']).toBe('http://127.0.0.1:40123');
  });

  test('the harness\'s own asi-conformance comes first on PATH, and runs this harness', async () => {
    const run = await runHook('asi-conformance --version && command -v asi-conformance', { env: hookEnvironment('http://127.0.0.1:9/v1') });
    expect(hookOutcome(run)).toBe('exited 0');
    const [version, found] = run.stdout.trim().split('\n');
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(found).toMatch(/\/bin\/asi-conformance$/);
  });

  test('a hook quoting "${BASE_URL}" gets it whole, as sh expands it', async () => {
    const run = await runHook('printf "%s|" "${BASE_URL}" $ORIGIN', { env: hookEnvironment('http://127.0.0.1:40123/v1?tenant=a b') });
    expect(run.stdout).toBe('http://127.0.0.1:40123/v1?tenant=a b|http://127.0.0.1:40123|');
  });
});
