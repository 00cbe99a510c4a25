import type { Exchange } from '../model/exchange.ts';
import { fail, pass, type Finding } from '../model/finding.ts';
import { describeResponse } from './json-body.ts';

/** A request the spec says must be served: any 2xx passes (the spec fixes no particular one). */
export function expectSuccess(requirement: string, exchange: Exchange, expected: string): Finding {
  const status = exchange.response?.status ?? 0;
  return status >= 200 && status < 300 ? pass(requirement, [exchange]) : fail(requirement, expected, describeResponse(exchange), [exchange]);
}
