import { describe, expect, test } from 'vitest';
import { badgeMessage, badgeStatus, badgeSvg } from '../../lib/certification/badge-svg.ts';
import type { Verification } from '../../lib/certification/verify-bundle.ts';

function verification(overrides: Partial<Verification> = {}): Verification {
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

const VERIFIER = { name: 'asi-conformance', version: '0.2.0' };

describe('badgeSvg', () => {
  test('a certification: green, the counts and the date; its title says what was verified', () => {
    const svg = badgeSvg(verification(), VERIFIER);
    expect(badgeMessage(verification())).toBe('certified · 103/103 pass · 2026-11-25');
    expect(svg).toContain('aria-label="ASI v1: certified · 103/103 pass · 2026-11-25"');
    expect(svg).toContain('fill="#1a7f37"');
    expect(svg).toContain(
      '<title>ASI v1 conformance of Acme &lt;script&gt;alert("x")&lt;/script&gt; &amp; co 1.2: certified · 103/103 pass · 2026-11-25; 103 pass, 0 fail, 0 warn, 0 not-run, 0 inconclusive, 0 uncovered, 0 waived; run run-1; made by asi-conformance 0.2.0; bundle sha256 ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff, verified with asi-conformance 0.2.0</title>',
    );
    expect(svg).not.toMatch(/<script|href=|<image|@import|url\((?!#)/);
  });

  test.each([
    ['conformant', 'conformant, not certified · 103/103 pass · 2026-11-25', '#2f8132'],
    ['partial', 'partial · 13 pass · 2026-11-25', '#0969da'],
    ['not-conformant', 'not conformant · 100/103 pass, 3 fail · 2026-11-25', '#cf222e'],
    ['incomplete', 'incomplete · 101/103 pass · 2026-11-25', '#8250df'],
  ] as const)('%s without certification: %s', (outcome, message, colour) => {
    const counts =
      outcome === 'partial'
        ? { pass: 13, fail: 0, warn: 0, 'not-run': 90, inconclusive: 0, uncovered: 0, waived: 0 }
        : outcome === 'not-conformant'
          ? { pass: 100, fail: 3, warn: 0, 'not-run': 0, inconclusive: 0, uncovered: 0, waived: 0 }
          : outcome === 'incomplete'
            ? { pass: 101, fail: 0, warn: 0, 'not-run': 2, inconclusive: 0, uncovered: 0, waived: 0 }
            : { pass: 103, fail: 0, warn: 0, 'not-run': 0, inconclusive: 0, uncovered: 0, waived: 0 };
    const v = verification({ certification: { certifying: false, because: ['a reason'] }, outcome: { outcome, exitCode: 0, counts } });
    expect(badgeStatus(v)).toBe(outcome === 'not-conformant' ? 'not conformant' : outcome);
    expect(badgeMessage(v)).toBe(message);
    const svg = badgeSvg(v, VERIFIER);
    expect(svg).toContain(`fill="${colour}"`);
    expect(svg).toContain('; not a certification: a reason</title>');
  });
});
