import fc from 'fast-check';

/** Constraints of `messageText`; every default keeps a message any agent should take. */
export interface MessageTextConstraints {
  /** Longest generated suffix, in graphemes. Default 400: the spec shows no length limit (§4.3), so stay modest. */
  maxSuffixLength?: number;
}

/** Texts that often trip encoders: scripts, emoji with modifiers, escapes, line breaks. */
const AWKWARD = [
  'Grüße aus Köln, ça va?',
  '日本語のメッセージです。',
  'مرحبا، كيف حال الصفقة؟',
  'Emoji 👋🏽 and a family 👨‍👩‍👧 and 🧪',
  'line one\nline two\r\nline three',
  'quotes " and \\ backslash and \' apostrophe',
  'tab\there and a form feed\f',
  '{"json": "inside", "n": 1}',
  'data: not a field\n\nevent: done',
  '\u2028 line and paragraph \u2029 separators',
] as const;

/**
 * A suffix for a message text: awkward fixed strings, printable Unicode, or longer ASCII.
 * The suite appends it to the profile's own message so the request stays meaningful to a real agent.
 */
export function messageText(constraints: MessageTextConstraints = {}): fc.Arbitrary<string> {
  const max = constraints.maxSuffixLength ?? 400;
  return fc.oneof(
    fc.constantFrom(...AWKWARD),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: Math.min(max, 60) }),
    fc.string({ unit: 'grapheme-ascii', minLength: Math.min(max, 100), maxLength: max }),
  );
}

/** The stream flag as a body can carry it: true, false, or absent. */
export type StreamFlag = true | false | 'absent';

/**
 * A message body from the profile's: the text field gets the suffix, and `stream` is set or
 * removed. The text field is `message` when the body has one, else its first string field (the
 * spec does not show the body, §4.3); a body with no string field keeps its text.
 */
export function messageBodyWith(base: Record<string, unknown>, suffix: string, stream: StreamFlag): Record<string, unknown> {
  const body: Record<string, unknown> = { ...base };
  const key = typeof body['message'] === 'string' ? 'message' : Object.keys(body).find((k) => k !== 'stream' && typeof body[k] === 'string');
  if (key !== undefined && suffix !== '') body[key] = `${String(body[key])} ${suffix}`;
  delete body['stream'];
  if (stream !== 'absent') body['stream'] = stream;
  return body;
}
