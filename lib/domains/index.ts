import type { InputDomain } from './input-domain.ts';
import { LEDGER_QUERY_DOMAINS } from './ledger-query-domains.ts';
import { REQUEST_HEADER_DOMAINS } from './request-header-domains.ts';

/** Every input the spec names, with its domain: the ledger's query, then the headers and body fields. */
export const INPUT_DOMAINS: readonly InputDomain[] = [...LEDGER_QUERY_DOMAINS, ...REQUEST_HEADER_DOMAINS];
