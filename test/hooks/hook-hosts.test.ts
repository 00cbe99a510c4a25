import { describe, expect, test } from 'vitest';
import { hookHostNotes } from '../../lib/hooks/hook-hosts.ts';
import { resolveProfile } from '../../lib/profile/resolve-profile.ts';
import type { FaultHook, FaultName, ResolvedProfile } from '../../lib/profile/resolved-profile.ts';

function profile(baseUrl: string, faults: Partial<Record<FaultName, FaultHook>>): ResolvedProfile {
  return resolveProfile('p.yaml', { base_url: baseUrl, tokens: { primary: { value: 'asi_live_0123456789abcdef' } }, faults }, {}).profile;
}

describe('hookHostNotes', () => {
  test('hooks written with the run\'s own values, or naming no URL, say nothing', () => {
    expect(
      hookHostNotes(
        profile('http://127.0.0.1:40123/v1', {
          limiter_store_down: { enable: 'asi-conformance fault limiter_store_down on --base-url "${BASE_URL}"', disable: 'curl -X DELETE "$ORIGIN/_admin/faults/limiter_store_down"' },
          upstream_unavailable: { enable: './ops/upstream-down.sh', disable: 'curl -fsS http://127.0.0.1:40123/_admin/up' },
        }),
      ),
    ).toEqual([]);
  });

  test('a hook left on the port the profile was written for is named, with the target it misses (serve --port 0)', () => {
    const notes = hookHostNotes(
      profile('http://127.0.0.1:40123/v1', {
        spend_cap_reached: {
          enable: 'node bin/asi-conformance.js fault spend_cap_reached on --admin http://127.0.0.1:8787/_admin',
          disable: 'node bin/asi-conformance.js fault spend_cap_reached off --admin http://127.0.0.1:8787/_admin',
        },
      }),
    );
    expect(notes).toEqual([
      'faults.spend_cap_reached.enable, faults.spend_cap_reached.disable name http://127.0.0.1:8787, not the target\'s http://127.0.0.1:40123: if that is where its faults are switched, fine; if not, the drills switch another server\'s faults (write "${BASE_URL}" or "${ORIGIN}" in the hook for the run\'s own)',
    ]);
  });

  test('one profile for two environments: run against staging, the hooks still name production', () => {
    const notes = hookHostNotes(
      profile('https://staging.example.com/v1', {
        upstream_unavailable: { enable: "curl -fsS -X PUT 'https://api.example.com/ops/upstream?down=1'", disable: 'curl -fsS -X PUT https://ops.example.net/upstream' },
      }),
    );
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^faults\.upstream_unavailable\.enable names https:\/\/api\.example\.com, not the target's https:\/\/staging\.example\.com:/);
    expect(notes[1]).toMatch(/^faults\.upstream_unavailable\.disable names https:\/\/ops\.example\.net,/);
  });
});
