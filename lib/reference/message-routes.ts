import type { Route } from './exchange-context.ts';

/** §4.3 message routes of deal and company agents, and async job polling. */
export function messageRoutes(): Route[] {
  return [];
}
