import { messageBodyWith } from '../arbitraries/message-text.ts';
import { jobIdOf } from '../checks/conversation-job.ts';
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
