import type { DefectSwitch, VariantSwitch } from '../switches.ts';
import { foundationDefects, foundationVariants } from './foundation.ts';
import { openapiDefects, openapiVariants } from './openapi.ts';
import { ledgerDefects, ledgerVariants } from './ledger.ts';
import { ratelimitDefects, ratelimitVariants } from './ratelimit.ts';
import { conversationDefects, conversationVariants } from './conversation.ts';
import { runWideDefects } from './run-wide.ts';

export const DEFECTS: readonly DefectSwitch[] = [...foundationDefects, ...openapiDefects, ...ledgerDefects, ...ratelimitDefects, ...conversationDefects, ...runWideDefects];
export const VARIANTS: readonly VariantSwitch[] = [...foundationVariants, ...openapiVariants, ...ledgerVariants, ...ratelimitVariants, ...conversationVariants];

export const DEFECT_NAMES = new Set(DEFECTS.map((d) => d.name));
export const VARIANT_NAMES = new Set(VARIANTS.map((v) => v.name));
