import type { Finding } from '../model/finding.ts';

/** What a suite test leaves in its vitest meta for the reporter (serialised across the worker boundary). */
export interface TestRecord {
  /** Requirements the test declared it checks. */
  requirements: string[];
  findings: Finding[];
  /** The harness or the target broke the test itself (not a verdict on the requirement). */
  error?: string;
  /** Requests the test sent. */
  requests?: number;
}

declare module 'vitest' {
  interface TaskMeta {
    asi?: TestRecord;
  }
}
