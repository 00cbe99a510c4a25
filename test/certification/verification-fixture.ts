import type { Verification } from '../../lib/certification/verify-bundle.ts';

/** A bundle that verified, of a certifying run of a vendor's target; every field overridable. */
export function verification(overrides: Partial<Verification> = {}): Verification {
  return {
    source: 'bundle.tar.gz',
    form: 'tar.gz',
    digest: 'f'.repeat(64),
    files: 8,
    signature: { state: 'unsigned' },
    harness: { name: 'asi-conformance', version: '0.2.0', sameBuild: true, sameCatalogue: true },
    checked: [],
    problems: [],
    intact: true,
    certification: { certifying: true, because: [] },
    run: { id: 'run-1', baseUrl: 'https://api.example.com/v1', embedded: false, startedAt: '2026-11-25T10:00:00.000Z', implementation: { label: 'Acme <script>alert("x")</script> & co', version: '1.2' } },
    outcome: { outcome: 'conformant', exitCode: 0, counts: { pass: 103, fail: 0, warn: 0, 'not-run': 0, inconclusive: 0, uncovered: 0, waived: 0 } },
    ...overrides,
  };
}
