import { isObject } from './json-body.ts';

/**
 * §2.4 "Conversation response": `conversation_id` (string) and `messages` (array). Other fields
 * are allowed (the spec does not forbid them) and the fields of a message are not shown (§2.5),
 * so nothing inside `messages` is judged. Empty when the value has the shape.
 */
export function conversationResponseProblems(value: unknown): string[] {
  if (!isObject(value)) return [`the body is ${describeValue(value)}, not a JSON object`];
  const problems: string[] = [];
  const id = value['conversation_id'];
  if (id === undefined) problems.push('`conversation_id` is missing');
  else if (typeof id !== 'string') problems.push(`\`conversation_id\` is ${describeValue(id)}, not a string`);
  const messages = value['messages'];
  if (messages === undefined) problems.push('`messages` is missing');
  else if (!Array.isArray(messages)) problems.push(`\`messages\` is ${describeValue(messages)}, not an array`);
  return problems;
}

/** A value for a finding's `actual`: its JSON, cut short. */
export function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
