import type { Exchange } from '../model/exchange.ts';
import { fail, pass, type Finding } from '../model/finding.ts';
import { expectError } from './error-envelope.ts';
import { describeResponse } from './json-body.ts';
import { readPage } from './ledger-page.ts';

/** The request was taken: 200 with a readable page (what the page holds is judged elsewhere). */
export function acceptedFinding(requirement: string, exchange: Exchange, what: string): Finding {
  return readPage(exchange).ok ? pass(requirement, [exchange]) : fail(requirement, `200 with a page for ${what}`, describeResponse(exchange), [exchange]);
}

/**
 * The request was refused as invalid. > 400 | (validation failure) | permanent
 * A 200 (rows for a bad request) and a 5xx both fail; the code is not fixed by the spec.
 */
export function rejectedFinding(requirement: string, exchange: Exchange): Finding {
  return expectError(requirement, exchange, { status: 400, category: 'permanent' });
}
