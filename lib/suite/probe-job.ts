import { messageBodyWith } from '../arbitraries/message-text.ts';
import { jobIdOf, jobPollDelaysMs, jobPollPath, jobStateOf } from '../checks/conversation-job.ts';
import { sleep } from '../http/client.ts';
import type { Exchange } from '../model/exchange.ts';
import { session } from './session.ts';

let created: Promise<string | undefined> | undefined;

/**
 * The id of one async message job the primary token created, for probes that need a real job to
 * poll (an invented id could meet a 404 first, which the spec leaves open); undefined when the
 * profile has no job mode or the job was not created. One job per run, one write.
 */
export function probeJobId(): Promise<string | undefined> {
  created ??= (async () => {
    const { client, context } = session();
    const route = context.profile.messages.routes[0];
    const jobs = context.profile.messages.async;
    if (route === undefined || jobs === undefined) return undefined;
    const post = await client.send({ method: 'POST', path: route.path, token: 'primary', json: { ...messageBodyWith(route.body, '', 'absent'), ...jobs.body } });
    const id = jobIdOf(post, jobs.jobIdPointer);
    return id.ok ? id.id : undefined;
  })();
  return created;
}

/**
 * The probe job's id once the job has finished, or once §8.1's polling backoff (1 s doubling to
 * 5 s) has run out. A drill that counts the ledger around a fault must not count the job's own
 * row, which a server may record when the job ends. In a whole run the job finished long before,
 * and one poll says so.
 */
export async function finishedProbeJobId(): Promise<string | undefined> {
  const id = await probeJobId();
  const jobs = session().context.profile.messages.async;
  if (id === undefined || jobs === undefined) return id;
  await pollUntilFinished(jobPollPath(jobs.poll, id), [0, ...jobPollDelaysMs()]);
  return id;
}

/** Polls a job with the primary token after each of `delaysMs`, until it has finished or a poll is not 2xx; the polls sent. */
export async function pollUntilFinished(pollPath: string, delaysMs: readonly number[]): Promise<Exchange[]> {
  const { client } = session();
  const polls: Exchange[] = [];
  for (const delay of delaysMs) {
    await sleep(delay);
    const poll = await client.send({ path: pollPath, token: 'primary' });
    polls.push(poll);
    const status = poll.response?.status ?? 0;
    if (status < 200 || status > 299 || jobStateOf(poll).state === 'finished') break;
  }
  return polls;
}
