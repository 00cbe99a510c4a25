import { describe, expect, test } from 'vitest';
import { badgeMessage, badgeStatus, badgeSvg } from '../../lib/certification/badge-svg.ts';
import { verification } from './verification-fixture.ts';

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

  test('the embedded reference: a grey "reference demo", never "certified" nor another name, whatever the run says', () => {
    const run = { id: 'run-1', baseUrl: 'http://127.0.0.1:4010/v1', embedded: true, startedAt: '2026-11-25T10:00:00.000Z', implementation: { label: 'Acme Agents', version: '2.3.1' } };
    const v = verification({ run, scope: ['a demo of the embedded reference implementation, not of an implementation under test'] });
    expect(badgeStatus(v)).toBe('reference demo');
    expect(badgeMessage(v)).toBe('reference demo · 103/103 pass · 2026-11-25');
    const svg = badgeSvg(v, VERIFIER);
    expect(svg).toContain('fill="#6e7781"');
    expect(svg).toContain('<title>ASI v1 conformance of the embedded reference implementation (a demo of the embedded reference implementation, not of an implementation under test): reference demo · 103/103 pass');
    expect(svg).not.toMatch(/certified|Acme/);
    const failing = verification({ run, certification: { certifying: false, because: ['the outcome is not-conformant'] }, outcome: { outcome: 'not-conformant', exitCode: 1, counts: { pass: 100, fail: 3, warn: 0, 'not-run': 0, inconclusive: 0, uncovered: 0, waived: 0 } } });
    expect(badgeMessage(failing)).toBe('reference demo, not conformant · 100/103 pass, 3 fail · 2026-11-25');
    // The name the harness gives its switched reference stays: it says which demo this is.
    const switched = verification({ run: { ...run, implementation: { label: 'asi-conformance reference with defect auth-missing-as-invalid' } } });
    expect(badgeSvg(switched, VERIFIER)).toContain('(a demo of the embedded reference implementation, not of an implementation under test, asi-conformance reference with defect auth-missing-as-invalid): reference demo');
  });

  test.each([
    [['a subset of suites'], 'partial', 'partial (a subset of suites) · 13 pass · 2026-11-25'],
    [['with 2 waivers'], 'conformant', 'conformant, not certified (with 2 waivers) · 103/103 pass · 2026-11-25'],
    [["at limits other than the spec's"], 'conformant', "conformant, not certified (at limits other than the spec's) · 103/103 pass · 2026-11-25"],
    [['a subset of requirements', 'with 1 waiver'], 'partial', 'partial (a subset of requirements, with 1 waiver) · 13 pass · 2026-11-25'],
  ] as const)('what the run left out shows on the badge itself: %j', (scope, outcome, message) => {
    const counts = outcome === 'partial' ? { pass: 13, fail: 0, warn: 0, 'not-run': 90, inconclusive: 0, uncovered: 0, waived: 0 } : { pass: 103, fail: 0, warn: 0, 'not-run': 0, inconclusive: 0, uncovered: 0, waived: 0 };
    const v = verification({ scope: [...scope], certification: { certifying: false, because: ['a reason'] }, outcome: { outcome, exitCode: 0, counts } });
    expect(badgeMessage(v)).toBe(message);
    expect(badgeSvg(v, VERIFIER)).toContain(`aria-label="ASI v1: ${message.replace(/'/g, '&#39;')}"`);
  });
});
