import { describe, expect, test } from 'vitest';
import { SecretInReportError } from '../../lib/errors.ts';
import { SecretGuard } from '../../lib/report/secret-guard.ts';

const SECRET = 'asi_live_0123456789abcdef';

function check(pieces: string[], secrets = [SECRET]): unknown {
  const guard = new SecretGuard('transcript.har', secrets);
  try {
    for (const piece of pieces) guard.check(piece);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('SecretGuard', () => {
  test('finds a secret within one piece, in every form', () => {
    expect(check(['{"a":1}', `x${SECRET}y`])).toBeInstanceOf(SecretInReportError);
    const escaped = 'tok"en\\1';
    expect((check([JSON.stringify({ echoed: escaped })], ['other', escaped]) as Error).message).toBe('transcript.har would contain secret #2 (JSON-escaped); no report was written');
  });

  test('finds a secret split across pieces, however small they are', () => {
    expect(check(['{"a":"asi_live_01', '23456789abcdef"}'])).toBeInstanceOf(SecretInReportError);
    expect(check([...`[${SECRET}]`])).toBeInstanceOf(SecretInReportError);
  });

  test('passes pieces that only border on each other', () => {
    expect(check([SECRET.slice(0, 10), 'x', SECRET.slice(10)])).toBeUndefined();
    expect(check(['a', 'b'], [])).toBeUndefined();
  });
});
