import { afterEach, expect, test } from 'vitest';
import type { RecordedRequest } from '../../lib/reference/scripted-mode.ts';
import { startReference, type RunningReference } from '../../lib/reference/server.ts';

let reference: RunningReference | undefined;
afterEach(async () => {
  await reference?.close();
  reference = undefined;
});

test('scripted mode: the script answers, the recorder gets each request with its receive time, every token shown as its variable', async () => {
  const recorded: RecordedRequest[] = [];
  reference = await startReference({
    scripted: {
      script: (r) => ({ status: 418, headers: { 'content-type': 'text/plain' }, body: `${r.method} ${r.target}` }),
      recorder: (r) => recorded.push(r),
    },
  });
  const token = reference.tokens['primary']!;
  const before = Date.now();
  const res = await fetch(`${reference.baseUrl}/me?access_token=${token}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: `{"token":"${token}"}` });
  // The script itself only ever sees the redacted request.
  expect(await res.text()).toBe('POST /v1/me?access_token=$ASI_TOKEN');
  expect(res.status).toBe(418);
  expect(recorded).toHaveLength(1);
  const [r] = recorded;
  expect(r).toMatchObject({ method: 'POST', target: '/v1/me?access_token=$ASI_TOKEN', body: '{"token":"$ASI_TOKEN"}', answer: { status: 418 } });
  expect(r!.headers['authorization']).toBe('Bearer $ASI_TOKEN');
  expect(r!.receivedAtMs).toBeGreaterThanOrEqual(before);
  expect(JSON.stringify(recorded)).not.toContain(token);
});
