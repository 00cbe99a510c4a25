import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REQUEST_HEADER_DOMAINS } from '../../lib/domains/request-header-domains.ts';
import { ROOT } from '../support/cli.ts';

const REGISTER = readFileSync(join(ROOT, 'docs', 'ambiguity-register.md'), 'utf8');
const SPEC = readFileSync(join(ROOT, 'docs', 'spec', 'agents-service-interface-v1.md'), 'utf8');

describe('REQUEST_HEADER_DOMAINS', () => {
  test('one entry per input, keyed <carrier>:<name>', () => {
    const ids = REQUEST_HEADER_DOMAINS.map((d) => d.id);
    expect(ids).toEqual(['header:Authorization', 'header:Accept', 'header:Content-Type', 'body:stream']);
    for (const d of REQUEST_HEADER_DOMAINS) expect(d.id).toBe(`${d.carrier}:${d.name}`);
  });

  test('each quote is the spec\'s own words', () => {
    for (const d of REQUEST_HEADER_DOMAINS) for (const part of d.quote.split(' […] ')) expect(SPEC, d.id).toContain(part.split('. ')[0]!);
  });

  test('every open point names a heading of the ambiguity register', () => {
    for (const d of REQUEST_HEADER_DOMAINS) for (const o of d.open) expect(REGISTER, `${d.id}: ${o.point}`).toContain(`## ${o.register}\n`);
  });
});
