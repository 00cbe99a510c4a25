import type { ConversationResponse } from './message-turn.ts';
import type { ReferenceState } from './state.ts';

/** A job is `queued` this long after its POST, then `running` (the reference's timing). */
export const JOB_QUEUED_MS = 200;
/** A job is `completed` this long after its POST: a client polling from 1 s on sees it by its second poll. */
export const JOB_COMPLETES_MS = 1_500;
/** Oldest jobs are forgotten past this many, so a long-running `serve` stays small. */
const MAX_JOBS = 10_000;

export type JobStatus = 'queued' | 'running' | 'completed' | 'failed';

interface StoredJob {
  id: string;
  workspace: string;
  createdAt: number;
  result: ConversationResponse;
}

/** The poll payload (§4.3: "Its path and payload are not shown"; the reference's shape). */
export interface JobView {
  job_id: string;
  status: JobStatus;
  result?: ConversationResponse;
}

/** The async message jobs of one server. The turn is played when the job is created; time only reveals it. */
export class JobStore {
  readonly #jobs = new Map<string, StoredJob>();

  create(id: string, workspace: string, result: ConversationResponse, now: number): JobView {
    this.#jobs.set(id, { id, workspace, createdAt: now, result });
    if (this.#jobs.size > MAX_JOBS) {
      const oldest = this.#jobs.keys().next().value;
      if (oldest !== undefined) this.#jobs.delete(oldest);
    }
    return { job_id: id, status: 'queued' };
  }

  /** Whether a job of this id exists in some workspace (variant `conversation-other-workspace-403`). */
  exists(id: string): boolean {
    return this.#jobs.has(id);
  }

  /** The job as its workspace sees it; a job of another workspace does not exist for the caller. */
  view(id: string, workspace: string, now: number): JobView | undefined {
    const job = this.#jobs.get(id);
    if (job === undefined || job.workspace !== workspace) return undefined;
    const age = now - job.createdAt;
    if (age < JOB_QUEUED_MS) return { job_id: id, status: 'queued' };
    if (age < JOB_COMPLETES_MS) return { job_id: id, status: 'running' };
    return { job_id: id, status: 'completed', result: job.result };
  }
}

const stores = new WeakMap<ReferenceState, JobStore>();

/** The job store of a running server (kept beside its state, which does not know about jobs). */
export function jobsOf(state: ReferenceState): JobStore {
  let store = stores.get(state);
  if (store === undefined) {
    store = new JobStore();
    stores.set(state, store);
  }
  return store;
}
