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
