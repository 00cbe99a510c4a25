import type { DefectSwitch, VariantSwitch } from '../switches.ts';

export const ledgerDefects: DefectSwitch[] = [];
export const ledgerVariants: VariantSwitch[] = [];
