import { describe, expect, test } from 'vitest';
import { refusedTextFindings } from '../../lib/checks/generated-message.ts';
import { answer, envelope } from './conversation-fixtures.ts';

const IDS = ['conversation/1/rest-default', 'conversation/8.1/message-write-pool'];

describe('refusedTextFindings', () => {
  test('a generated text refused with any error leaves the requirements not run, with the answer as evidence', () => {
    const refused = answer(400, envelope('request.validation_failed', 'permanent'));
    const findings = refusedTextFindings(IDS, refused);
    expect(findings?.map((f) => [f.requirement, f.verdict])).toEqual(IDS.map((id) => [id, 'not-run']));
    expect(findings?.[0]?.note).toMatch(/refused it \(HTTP 400, code request\.validation_failed\).*no rule for a message's content/);
    expect(findings?.[0]?.exchanges).toEqual([refused]);
    expect(refusedTextFindings(IDS, answer(413, 'too large'))?.[0]?.note).toMatch(/\(HTTP 413\)/);
  });

  test('a served text, or one without an answer, is left to the transport rules', () => {
    expect(refusedTextFindings(IDS, answer(200, { conversation_id: 'c', messages: [] }))).toBeUndefined();
    const unanswered = answer(200, {});
    delete unanswered.response;
    expect(refusedTextFindings(IDS, unanswered)).toBeUndefined();
  });
});
