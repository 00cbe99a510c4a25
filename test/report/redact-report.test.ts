import { expect, test } from 'vitest';
import { Redactor } from '../../lib/http/redactor.ts';
import { redactReport } from '../../lib/report/redact-report.ts';

const TOKEN = 'asi_live_0123456789abcdef0123456789abcdef';

test('every string and key of a report goes through the redactor; other values stay', () => {
  const report = {
    results: [{ findings: [{ actual: `openapi is ${TOKEN}`, exchanges: [] }], durationMs: 12 }],
    observed: { codes: { [`auth.${TOKEN}`]: 1 } },
    ok: true,
    none: null,
  };
  const redacted = redactReport(report, new Redactor([{ value: TOKEN, placeholder: '$ASI_TOKEN' }]));
  expect(redacted).toEqual({
    results: [{ findings: [{ actual: 'openapi is $ASI_TOKEN', exchanges: [] }], durationMs: 12 }],
    observed: { codes: { 'auth.$ASI_TOKEN': 1 } },
    ok: true,
    none: null,
  });
});

test('recorded exchanges, redacted by the client when recorded, are left as they are', () => {
  const exchange = { seq: 3, request: { method: 'GET', url: 'http://t/v1/me', headers: {} }, note: TOKEN };
  const redacted = redactReport({ findings: [{ exchanges: [exchange], actual: TOKEN }] }, new Redactor([{ value: TOKEN, placeholder: '$ASI_TOKEN' }]));
  expect(redacted.findings[0]!.exchanges[0]).toBe(exchange);
  expect(redacted.findings[0]!.actual).toBe('$ASI_TOKEN');
});
