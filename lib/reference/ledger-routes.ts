import type { Route } from './exchange-context.ts';
import type { ReferenceState } from './state.ts';

/** Lays out the deterministic seeded ledger of both workspaces. */
export function seedLedger(_state: ReferenceState): void {}

/** §4.1 GET /credits/operations. */
export function ledgerRoutes(): Route[] {
  return [
    {
      path: '/credits/operations',
      methods: ['GET', 'HEAD'],
      handler: (ctx) => ctx.sendJson(200, { operations: [], next_cursor: null }),
    },
  ];
}
