import type { ExchangeContext, Route } from './exchange-context.ts';
import { jobsOf, type JobView } from './job-store.ts';
import { messageFaultFor } from './message-faults.ts';
import { nextMessageId } from './message-ids.ts';
import { isPlainText, parseMessageRequest, PLAIN_TEXT_MAX_CHARS, transportOf, type MessageRequest, type Transport } from './message-request.ts';
import { streamTurn } from './message-stream.ts';
import { DEMO_AGENTS, planTurn, type AgentKind } from './message-turn.ts';

/** Credits one accepted message costs (§8.2 leaves the sizes open; the reference's choice). */
export const MESSAGE_CREDITS = 1;

const FEATURE: Record<AgentKind, string> = { deal: 'deal_agent', company: 'company_agent' };

/** The transport the reference serves, with the transport defects applied. */
function servedTransport(ctx: ExchangeContext, request: MessageRequest): Transport {
  const d = ctx.state.defects;
  const asked = transportOf({
    asyncFlag: request.asyncFlag,
    streamFlag: request.streamFlag && !d.has('conversation-stream-flag-ignored'),
    acceptsStream: request.acceptsStream && !d.has('conversation-accept-ignored'),
  });
  return asked === 'rest' && d.has('conversation-stream-by-default') ? 'sse' : asked;
}

/**
 * §4.3 "A POST on the message route of a deal or company agent sends a message." Order: the agent
 * must exist, the body must be valid, no fault may stand in the way; only then is the message
 * accepted, which appends one ledger row. A refused message does no work.
 */
async function postMessage(ctx: ExchangeContext, kind: AgentKind): Promise<void> {
  const agentId = ctx.params['agent_id'] ?? '';
  if (!agentExists(ctx, kind)) {
    return ctx.sendError(404, 'agent.not_found', 'permanent', `No ${kind} agent "${agentId}" in this workspace.`);
  }
  const body = await ctx.readBody();
  if (!body.ok) {
    if (body.reason === 'aborted') return;
    return ctx.sendError(413, 'request.body_too_large', 'permanent', 'The request body is too large.', undefined, { connection: 'close' });
  }
  const parsed = parseMessageRequest(body.text, ctx.header('accept'));
  if (!parsed.ok) {
    return ctx.sendError(400, 'request.validation_failed', 'permanent', parsed.message, { field: parsed.field, reason: parsed.reason });
  }
  if (ctx.state.variants.has('conversation-plain-texts-only') && !isPlainText(parsed.request.message)) {
    const message = `The field "message" must be printable ASCII of at most ${PLAIN_TEXT_MAX_CHARS} characters.`;
    return ctx.sendError(400, 'request.validation_failed', 'permanent', message, { field: 'message', reason: 'unsupported_text' });
  }
  const post = { kind, request: parsed.request };
  const fault = messageFaultFor(ctx.state, post);
  if (fault !== undefined) {
    if (fault.code === 'upstream.unavailable' && ctx.state.defects.has('conversation-upstream-plain-text')) {
      return ctx.send(503, 'Service Unavailable', { 'content-type': 'text/plain; charset=utf-8' });
    }
    if (fault.withoutPoolHeaders === true) ctx.dropPoolHeaders();
    return ctx.sendError(fault.status, fault.code, fault.category, fault.message, undefined, fault.headers);
  }

  const transport = servedTransport(ctx, parsed.request);
  const v = ctx.state.variants;
  const turn = planTurn(ctx.state, kind, parsed.request.message, v.has('conversation-no-tool-events') ? 'none' : v.has('conversation-tool-ids-numeric') ? 'numeric-ids' : 'text-ids');
  const token = ctx.token!;
  const metadata = { agent_id: agentId, conversation_id: turn.response.conversation_id, transport };
  ctx.state.ledger.append(token.workspace, { operation_type: 'agent_message', feature: FEATURE[kind], credits: MESSAGE_CREDITS, metadata }, ctx.state.now());
  // Variant: a message records its tool use as a row of its own too.
  if (v.has('ratelimit-two-rows-per-message')) {
    ctx.state.ledger.append(token.workspace, { operation_type: 'agent_tool_use', feature: FEATURE[kind], credits: MESSAGE_CREDITS / 2, metadata }, ctx.state.now());
  }

  if (transport === 'sse') return streamTurn(ctx, turn, post);
  if (transport === 'async') {
    const view = jobsOf(ctx.state).create(nextMessageId(ctx.state, 'job'), token.workspace, turn.response, ctx.state.now());
    return ctx.sendJson(202, v.has('conversation-job-payload-other') ? otherJobPayload(view) : view);
  }
  const response: Record<string, unknown> = { ...turn.response };
  if (ctx.state.defects.has('conversation-rest-without-conversation-id')) delete response['conversation_id'];
  // Defect: the blocking answer goes out before the agent has done anything.
  if (ctx.state.defects.has('conversation-rest-returns-early')) Object.assign(response, { messages: [], status: 'running' });
  // Defect: the finished turn's answer lists none of its messages.
  if (ctx.state.defects.has('conversation-rest-empty-messages')) response['messages'] = [];
  // Variant: the finished turn answered 201 (§1 names no status for the blocking answer).
  ctx.sendJson(v.has('conversation-rest-201') ? 201 : 200, response, ctx.mislabelledIf('conversation-rest-as-text-plain'));
}

function agentExists(ctx: ExchangeContext, kind: AgentKind): boolean {
  return DEMO_AGENTS[kind].includes(ctx.params['agent_id'] ?? '');
}

function jobExists(ctx: ExchangeContext): boolean {
  return !ctx.state.defects.has('conversation-job-not-found') && jobsOf(ctx.state).view(ctx.params['job_id'] ?? '', ctx.token!.workspace, ctx.state.now()) !== undefined;
}

/** §4.3 "Polling an async message job is a GET." The reference's path: /message-jobs/{job_id}. */
function pollJob(ctx: ExchangeContext): void {
  const id = ctx.params['job_id'] ?? '';
  const view = ctx.state.defects.has('conversation-job-not-found') ? undefined : jobsOf(ctx.state).view(id, ctx.token!.workspace, ctx.state.now());
  // Variant: another workspace's job is forbidden rather than unknown (the spec says nothing of it).
  if (view === undefined && ctx.state.variants.has('conversation-other-workspace-403') && jobsOf(ctx.state).exists(id)) {
    return ctx.sendError(403, 'auth.forbidden', 'permanent', `The message job "${id}" belongs to another workspace.`);
  }
  if (view === undefined) return ctx.sendError(404, 'message_job.not_found', 'permanent', `No message job "${id}" in this workspace.`);
  if (ctx.state.defects.has('conversation-job-poll-500')) return ctx.sendError(500, 'system.internal', 'transient', 'Internal error.');
  if (ctx.state.defects.has('conversation-job-poll-no-pool-headers')) ctx.dropPoolHeaders();
  ctx.sendJson(200, ctx.state.variants.has('conversation-job-payload-other') ? otherJobPayload(view) : view);
}

/** Variant `conversation-job-payload-other`: another vendor's poll payload (§4.3: "Its path and payload are not shown"). */
function otherJobPayload(view: JobView): Record<string, unknown> {
  const state = { queued: 'pending', running: 'in_progress', completed: 'succeeded', failed: 'failed' }[view.status];
  return { job_id: view.job_id, job: { state, progress: view.status === 'completed' ? 1 : 0 }, state, ...(view.result === undefined ? {} : { output: view.result }) };
}

/** §4.3 message routes of deal and company agents, and async job polling. */
export function messageRoutes(): Route[] {
  return [
    { path: '/deal-agents/{agent_id}/messages', methods: ['POST'], handler: (ctx) => postMessage(ctx, 'deal'), exists: (ctx) => agentExists(ctx, 'deal') },
    { path: '/company-agents/{agent_id}/messages', methods: ['POST'], handler: (ctx) => postMessage(ctx, 'company'), exists: (ctx) => agentExists(ctx, 'company') },
    { path: '/message-jobs/{job_id}', methods: ['GET', 'HEAD'], handler: pollJob, exists: jobExists },
  ];
}
