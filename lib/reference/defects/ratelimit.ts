import type { DefectSwitch, VariantSwitch } from '../switches.ts';

export const ratelimitDefects: DefectSwitch[] = [];
export const ratelimitVariants: VariantSwitch[] = [];
