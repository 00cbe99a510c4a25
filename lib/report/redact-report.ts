import type { Redactor } from '../http/redactor.ts';

/**
 * Every string of a report (and every key) through the redactor, once more before it is written,
 * but for the recorded exchanges, redacted when they were recorded: a check may quote text it
 * decoded itself (a YAML escape, a base64 field) in a finding, and the target's codes and fields
 * are observed as sent.
 * Redacting here means the final guard of the writers never has to refuse a report over a target's
 * echo.
 */
export function redactReport<T>(value: T, redactor: Redactor): T {
  return redactValue(value, redactor) as T;
}

/**
 * A recorded exchange (a request with its sequence number): the client redacted all of it when it
 * recorded it, and exchanges are most of a report's bytes, so they are not walked again.
 */
function isRecordedExchange(value: object): boolean {
  return 'seq' in value && typeof value.seq === 'number' && 'request' in value && typeof value.request === 'object';
}

function redactValue(value: unknown, redactor: Redactor): unknown {
  if (typeof value === 'string') return redactor.redact(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redactor));
  if (typeof value === 'object' && value !== null) {
    if (isRecordedExchange(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redactor.redact(k)] = redactValue(v, redactor);
    return out;
  }
  return value;
}
