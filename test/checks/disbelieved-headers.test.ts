import { describe, expect, test } from 'vitest';
import { disbelievedHeadersFinding } from '../../lib/checks/disbelieved-headers.ts';
import { exchange } from './rate-limit-fixtures.ts';

const ID = 'ratelimit/8.1/unplanned-429';

describe('rate-limit headers the pacing client disbelieved', () => {
  test('none: pass, saying so', () => {
    expect(disbelievedHeadersFinding(ID, [], 60)).toMatchObject({ verdict: 'pass', note: expect.stringMatching(/within the window/) });
  });

  test('a Retry-After of an hour: listed with the response that carried it', () => {
    const refused = exchange(429, { role: 'primary', headers: { 'retry-after': '3600' } });
    const f = disbelievedHeadersFinding(ID, [{ role: 'primary', pool: 'read', header: 'retry-after', value: '3600', instead: 'waited at most 65 s instead', exchange: refused, times: 4 }], 60);
    expect(f.verdict).toBe('fail');
    expect(f.actual).toContain('retry-after: 3600 on primary/read (4 responses; waited at most 65 s instead)');
    expect(f.expected).toContain('within the 60 s window');
    expect(f.exchanges).toEqual([refused]);
  });
});
