import { requirements } from './define.ts';

export const ratelimitRequirements = requirements('ratelimit', []);
