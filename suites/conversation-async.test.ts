import { describe } from 'vitest';
import { messageBodyWith } from '../lib/arbitraries/message-text.ts';
import {
  ASYNC_JOB,
  JOB_OUTCOME,
  JOB_POLL_READ_POOL,
  JOB_POST_WRITE_POOL,
  jobIdOf,
  jobNotCreatedFindings,
  jobPollDelaysMs,
  jobPollFindings,
  jobPollPath,
  jobPostPoolFinding,
} from '../lib/checks/conversation-job.ts';
import { pollUntilFinished } from '../lib/suite/probe-job.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';

// Budget: one write per route (the job POSTs, at most MAX_ROUTES) and at most six reads (the polls
// of the first route's job) on the primary token.
const MAX_ROUTES = 3;

describe('§1, §4.3, §8.1 rule 3: async message jobs', () => {
  // > An asynchronous message-job mode also exists: a POST creates a job and a GET polls it.
  // > Polling an async message job is a GET and uses the read pool. The POST that created the job uses the write pool.
  requirementTest(
    [ASYNC_JOB, JOB_POST_WRITE_POOL, JOB_POLL_READ_POOL, JOB_OUTCOME],
    `a job created on the first route, polled with a backoff from 1 s doubling to 5 s; a job created on each other route (up to ${MAX_ROUTES})`,
    async ({ client, sendAll, context, notRun }) => {
      const settings = context.profile.messages.async;
      if (settings === undefined) return notRun('the profile has no messages.async settings (the spec does not show the job mode)');
      const route = context.profile.messages.routes[0];
      if (route === undefined) return notRun('the profile lists no messages.routes');
      const pools = context.profile.limits;
      const json = { ...messageBodyWith(route.body, '', 'absent'), ...settings.body };
      const post = await client.send({ method: 'POST', path: route.path, token: 'primary', json });
      const postPool = jobPostPoolFinding(post, pools);
      const id = jobIdOf(post, settings.jobIdPointer);
      if (!id.ok) return [postPool, ...jobNotCreatedFindings(post, id.why)];
      // The job mode on the other routes too, while the first job is polled: each POST that creates
      // a job is charged to the write pool, and the run-wide rules judge its answer like any other
      // (§8.1 rule 3).
      const othersSent = sendAll(
        context.profile.messages.routes.slice(1, MAX_ROUTES).map((other) => ({ method: 'POST', path: other.path, token: 'primary', json: { ...messageBodyWith(other.body, '', 'absent'), ...settings.body } })),
      );
      // > poll async jobs with a backoff starting at 1 second and doubling up to 5 seconds
      const polls = await pollUntilFinished(jobPollPath(settings.poll, id.id), jobPollDelaysMs());
      const others = await othersSent;
      return [postPool, ...others.map((o) => jobPostPoolFinding(o, pools)), ...jobPollFindings(polls, pools)];
    },
    { timeout: 60_000 },
  );
});
