import { requirements } from './define.ts';

export const ledgerRequirements = requirements('ledger', []);
