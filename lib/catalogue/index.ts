import type { Requirement } from '../model/requirement.ts';
import { openapiRequirements } from './openapi.ts';
import { unauthenticatedRequirements } from './unauthenticated.ts';
import { authRequirements } from './auth.ts';
import { errorsRequirements } from './errors.ts';
import { ledgerRequirements } from './ledger.ts';
import { ratelimitRequirements } from './ratelimit.ts';
import { conversationRequirements } from './conversation.ts';

/** The requirement catalogue, in the order the report lists areas. */
export const catalogue: readonly Requirement[] = [
  ...openapiRequirements,
  ...unauthenticatedRequirements,
  ...authRequirements,
  ...errorsRequirements,
  ...ledgerRequirements,
  ...ratelimitRequirements,
  ...conversationRequirements,
];

const byId = new Map(catalogue.map((r) => [r.id, r]));

export function requirementById(id: string): Requirement | undefined {
  return byId.get(id);
}

/** Throws on an id that is not in the catalogue: a suite must never invent a requirement. */
export function requireRequirement(id: string): Requirement {
  const r = byId.get(id);
  if (r === undefined) throw new Error(`requirement ${id} is not in the catalogue (lib/catalogue/)`);
  return r;
}
