import type { DefectSwitch, VariantSwitch } from '../switches.ts';

export const conversationDefects: DefectSwitch[] = [];
export const conversationVariants: VariantSwitch[] = [];
