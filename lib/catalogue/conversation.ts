import { requirements } from './define.ts';

export const conversationRequirements = requirements('conversation', []);
