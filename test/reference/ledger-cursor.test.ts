import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { decodeCursor, encodeCursor, ServerSideCursors, type CursorFormat, type CursorState } from '../../lib/reference/ledger-cursor.ts';

const secret = randomBytes(32);
const state: CursorState = { workspace: 'ws_1', fromMs: 1, toMs: 2, implicit: false, feature: 'deal_agent', order: 'desc', after: { at: 5, uuid: 'u' } };

describe('the reference cursor', () => {
  test.each<CursorFormat>(['signed', 'reserved-characters', 'plus-separated'])('%s round-trips', (format) => {
    expect(decodeCursor(encodeCursor(state, secret, format), secret, format)).toEqual({ ok: true, state });
  });

  test('reserved-characters needs percent-encoding in a query', () => {
    expect(encodeURIComponent(encodeCursor(state, secret, 'reserved-characters'))).not.toBe(encodeCursor(state, secret, 'reserved-characters'));
  });

  test('any change to a signed cursor is refused, even one a lenient base64 decoder ignores', () => {
    const c = encodeCursor(state, secret, 'signed');
    for (const changed of [`${c}A`, c.slice(0, -1), `x${c}`, c.replace('.', '!'), `${c.slice(0, -1)}${c.endsWith('A') ? 'B' : 'A'}`]) {
      expect(decodeCursor(changed, secret, 'signed').ok).toBe(false);
    }
    expect(decodeCursor(c, randomBytes(32), 'signed').ok).toBe(false);
  });

  test('unsigned (a defect) reads whatever decodes', () => {
    const c = encodeCursor(state, secret, 'signed');
    expect(decodeCursor(`${c.split('.')[0]}.forged`, secret, 'signed', { unsigned: true })).toEqual({ ok: true, state });
  });

  test('server-side cursors are random ids that can be passed again', () => {
    const table = new ServerSideCursors(2);
    const a = table.issue(state);
    expect(table.lookup(a)).toEqual({ ok: true, state });
    expect(table.lookup(a)).toEqual({ ok: true, state });
    table.issue(state);
    table.issue(state);
    expect(table.lookup(a).ok).toBe(false);
    expect(table.lookup('nope').ok).toBe(false);
  });
});
