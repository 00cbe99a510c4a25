import type { Exchange } from '../model/exchange.ts';
import { notRun, type Finding } from '../model/finding.ts';
import { parseEnvelope } from './error-envelope.ts';
import { judged } from './judged.ts';

/**
 * A message POST carrying a generated text (the profile's message with a suffix) that the target
 * refused. §4.3 shows neither the body nor any rule for a message's content (its length, its
 * characters), so a server may refuse a text beyond the profile's own: the requirements a served
 * text is held to are not judged on it, and say so (its error answer is still held to the §7
 * envelope by the run-wide rules). Undefined when the text was not refused: a served text is held
 * to the transport rules like any message, and an exchange without an answer is judged as such.
 */
export const refusedTextFindings = judged('generated-message/refusedTextFindings', function refusedTextFindings(requirements: readonly string[], exchange: Exchange): Finding[] | undefined {
  const status = exchange.response?.status;
  if (status === undefined || status < 400) return undefined;
  const envelope = parseEnvelope(exchange);
  const answer = envelope.ok ? `HTTP ${status}, code ${envelope.error.code}` : `HTTP ${status}`;
  const why = `not judged on this generated text: the target refused it (${answer}), as it may, since the spec fixes no rule for a message's content`;
  return requirements.map((id) => ({ ...notRun(id, why), exchanges: [exchange] }));
});
