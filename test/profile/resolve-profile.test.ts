import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { MissingTokenError } from '../../lib/errors.ts';
import { loadProfileFile } from '../../lib/profile/load-profile.ts';
import { resolveProfile } from '../../lib/profile/resolve-profile.ts';

const ROOT = join(import.meta.dirname, '..', '..');

describe('profiles', () => {
  test('the shipped profiles validate', () => {
    expect(loadProfileFile(join(ROOT, 'config', 'example.yaml')).base_url).toBe('https://api.example.com/v1');
    expect(loadProfileFile(join(ROOT, 'config', 'reference.yaml')).messages?.routes).toHaveLength(2);
  });

  test('tokens come from the environment with their variable as placeholder; unset optional ones become notes', () => {
    const raw = loadProfileFile(join(ROOT, 'config', 'example.yaml'));
    const { tokens, profile, notices } = resolveProfile('x.yaml', raw, { ASI_TOKEN: 'asi_live_1', ASI_TOKEN_2: ' asi_live_2 ' });
    expect(tokens).toEqual({ primary: { value: 'asi_live_1', placeholder: '$ASI_TOKEN' }, secondary: { value: 'asi_live_2', placeholder: '$ASI_TOKEN_2' } });
    expect(profile.tokenRoles).toEqual(['primary', 'secondary']);
    expect(notices.some((n) => n.includes('ASI_TOKEN_WS2'))).toBe(true);
    expect(profile.messages.routes[0]!.path).toBe('/deal-agents/da_1/messages');
    expect(profile.certifying).toBe(true);
  });

  test('an unset primary token is an error naming the variable', () => {
    const raw = loadProfileFile(join(ROOT, 'config', 'example.yaml'));
    expect(() => resolveProfile('x.yaml', raw, {})).toThrow(MissingTokenError);
  });

  test('limits other than the spec make the run non-certifying', () => {
    const { profile, notices } = resolveProfile('x', { base_url: 'http://h/v1', tokens: { primary: { value: 'tok_live_0001' } }, limits: { read: 30 } }, {});
    expect(profile.limits).toEqual({ read: 30, write: 60, windowS: 60 });
    expect(profile.certifying).toBe(false);
    expect(notices.join()).toContain('not a certification');
  });

  test('pacing.max_in_flight: 256 (more for a big pool) unless the profile sets it; anything but an integer from 1 to 1024 names the key', () => {
    const base = { base_url: 'http://h/v1', tokens: { primary: { value: 'tok_live_0001' } } };
    expect(resolveProfile('x', base, {}).profile.pacing).toEqual({ maxInFlight: 256 });
    // A bigger pool gets more by default (spent in about six round trips), up to 1024; a cap the profile sets holds.
    expect(resolveProfile('x', { ...base, limits: { read: 6000 } }, {}).profile.pacing).toEqual({ maxInFlight: 1000 });
    expect(resolveProfile('x', { ...base, limits: { read: 60_000 } }, {}).profile.pacing).toEqual({ maxInFlight: 1024 });
    expect(resolveProfile('x', { ...base, limits: { read: 6000 }, pacing: { max_in_flight: 300 } }, {}).profile.pacing).toEqual({ maxInFlight: 300 });
    expect(resolveProfile('x', { ...base, pacing: { max_in_flight: 4 } }, {}).profile.pacing).toEqual({ maxInFlight: 4 });
    const dir = mkdtempSync(join(tmpdir(), 'asi-pacing-'));
    for (const bad of ['0', '1025', '"many"']) {
      const file = join(dir, `p${bad.length}.yaml`);
      writeFileSync(file, `base_url: http://h/v1\ntokens: { primary: { env: ASI_TOKEN } }\npacing: { max_in_flight: ${bad} }\n`);
      expect(() => loadProfileFile(file)).toThrow(/pacing\.max_in_flight/);
    }
  });

  test('a route placeholder without a param names the route', () => {
    expect(() =>
      resolveProfile('p.yaml', { base_url: 'http://h/v1', tokens: { primary: { value: 'tok_live_0001' } }, messages: { routes: [{ path: '/a/{id}', body: {} }] } }, {}),
    ).toThrow('messages.routes[0].params: no value for the placeholder {id}');
  });
});

describe('a token too short to be one', () => {
  test('is refused naming the variable and its length, never its value', () => {
    const raw = { base_url: 'http://h/v1', tokens: { primary: { env: 'ASI_TOKEN' } } };
    expect(() => resolveProfile('p.yaml', raw, { ASI_TOKEN: 'x' })).toThrow('p.yaml: tokens.primary: ASI_TOKEN holds 1 character, too short to be a token (§5.2: <prefix>_live_<hex>; at least 8)');
  });
});

describe('a token with a control character inside', () => {
  test('is refused before any request, naming where it came from and never its value: no header may hold it', () => {
    const said = 'holds a line break or another control character, which no header may (a token pasted with its line end?)';
    const raw = { base_url: 'http://h/v1', tokens: { primary: { env: 'ASI_TOKEN' }, secondary: { value: 'asi_live_0123\u0001456789abcdef' } } };
    expect(() => resolveProfile('p.yaml', raw, { ASI_TOKEN: 'asi_live_0123456789abcdef\n0123456789abcdef' })).toThrow(`p.yaml: tokens.primary: ASI_TOKEN ${said}`);
    expect(() => resolveProfile('p.yaml', raw, { ASI_TOKEN: 'asi_live_0123456789abcdef0123456789abcdef\n' })).toThrow(`p.yaml: tokens.secondary: tokens.secondary.value ${said}`);
  });
});

describe('a base_url with a user name or password', () => {
  test('is refused before the tokens are read, and not echoed', () => {
    let message = '';
    try {
      resolveProfile('p.yaml', { base_url: 'https://gw:pw-5ec7e75e@h/v1', tokens: { primary: { env: 'ASI_TOKEN' } } }, {});
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^p\.yaml: base_url: holds a user name or password/);
    expect(message).not.toContain('pw-5ec7e75e');
  });
});
