import { LEDGER_QUERY_DOMAINS } from './ledger-query-domains.ts';
export const INPUT_DOMAINS = [...LEDGER_QUERY_DOMAINS];
