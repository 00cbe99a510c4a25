import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { PACKAGE_ROOT } from '../package-root.ts';
import type { ExchangeContext } from './exchange-context.ts';
import { MESSAGE_MAX_CHARS } from './message-request.ts';
import type { ReferenceState } from './state.ts';

type Json = Record<string, unknown>;

let canonical: Json | undefined;

/**
 * The canonical contract, read once. It is shared data, not harness code: the reference reads the
 * YAML file itself and never the harness's validators.
 */
function contract(): Json {
  canonical ??= parse(readFileSync(join(PACKAGE_ROOT, 'lib', 'contract', 'asi-v1.openapi.yaml'), 'utf8')) as Json;
  return canonical;
}

const ERROR_RESPONSE = (description: string): Json => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/**
 * The reference's own routes (§4.3 leaves their paths and bodies "not shown"; docs/reference.md
 * lists the choices), described as plain operations next to the contract's.
 */
function referencePaths(): Json {
  const agentId = { name: 'agent_id', in: 'path', required: true, schema: { type: 'string' }, description: 'Demo agents: da_1 (deal), ca_1 (company).' };
  const sendMessage = (kind: 'deal' | 'company', operationId: string): Json => ({
    post: {
      operationId,
      tags: ['Conversations'],
      summary: `Send a message to a ${kind} agent.`,
      description:
        'REST by default; an SSE stream with `Accept: text/event-stream` or `stream: true`; an async job with `async: true`. Each accepted message appends one ledger row.',
      parameters: [agentId],
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/MessageRequest' } } } },
      responses: {
        '200': {
          description: 'The conversation response (§2.4), or the event stream (§6).',
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/ConversationResponse' } },
            'text/event-stream': { schema: { type: 'string' } },
          },
        },
        '202': { description: 'The async message job, queued.', content: { 'application/json': { schema: { $ref: '#/components/schemas/MessageJob' } } } },
        '400': { $ref: '#/components/responses/BadRequest' },
        '401': { $ref: '#/components/responses/Unauthorized' },
        '404': ERROR_RESPONSE('No such agent in the workspace.'),
        '413': ERROR_RESPONSE('The request body is too large.'),
        '429': { $ref: '#/components/responses/TooManyRequests' },
        '503': { $ref: '#/components/responses/ServiceUnavailable' },
      },
    },
  });
  return {
    '/deal-agents/{agent_id}/messages': sendMessage('deal', 'sendDealAgentMessage'),
    '/company-agents/{agent_id}/messages': sendMessage('company', 'sendCompanyAgentMessage'),
    '/message-jobs/{job_id}': {
      get: {
        operationId: 'getMessageJob',
        tags: ['Conversations'],
        summary: 'Poll an async message job.',
        parameters: [{ name: 'job_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': { description: 'The job; `result` once completed.', content: { 'application/json': { schema: { $ref: '#/components/schemas/MessageJob' } } } },
          '401': { $ref: '#/components/responses/Unauthorized' },
          '404': ERROR_RESPONSE('No such job in the workspace.'),
          '429': { $ref: '#/components/responses/TooManyRequests' },
          '503': { $ref: '#/components/responses/ServiceUnavailable' },
        },
      },
    },
  };
}

function referenceSchemas(): Json {
  return {
    MessageRequest: {
      type: 'object',
      required: ['message'],
      properties: {
        message: { type: 'string', minLength: 1, maxLength: MESSAGE_MAX_CHARS },
        stream: { type: 'boolean', default: false },
        async: { type: 'boolean', default: false },
      },
    },
    ConversationResponse: {
      type: 'object',
      required: ['conversation_id', 'messages'],
      properties: { conversation_id: { type: 'string' }, messages: { type: 'array' } },
    },
    MessageJob: {
      type: 'object',
      required: ['job_id', 'status'],
      properties: {
        job_id: { type: 'string' },
        status: { type: 'string', enum: ['queued', 'running', 'completed', 'failed'] },
        result: { $ref: '#/components/schemas/ConversationResponse' },
      },
    },
  };
}

function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function ledgerParameter(doc: Json, name: string): Json {
  const get = record(record(record(doc['paths'])['/credits/operations'])['get']);
  const parameters = Array.isArray(get['parameters']) ? (get['parameters'] as unknown[]) : [];
  return record(record(parameters.find((p) => record(p)['name'] === name))['schema']);
}

function schema(doc: Json, name: string): Json {
  return record(record(record(doc['components'])['schemas'])[name]);
}

/**
 * The per-IP limiter's 429 on the unauthenticated routes (§8.1 rule 4; docs/reference.md), which
 * the contract leaves out: the reference describes every response it gives on the spec's routes.
 */
function describeIpLimiter(doc: Json): void {
  for (const path of ['/health', '/openapi.json', '/openapi.yaml']) {
    const responses = record(record(record(record(doc['paths'])[path])['get'])['responses']);
    responses['429'] = ERROR_RESPONSE('The per-IP limiter of the unauthenticated routes is exhausted; Retry-After says when to come back.');
  }
}

/**
 * Variant `openapi-extra-content`: what a vendor's own description adds beyond the spec's, which
 * the spec leaves open: an extension at the top and on the ledger operation, a path of its own,
 * an optional query parameter the ledger ignores, and a 503 response the ledger may give.
 */
function addVendorContent(doc: Json): void {
  doc['x-vendor-build'] = '2026.11.29-rc1';
  const operation = record(record(record(doc['paths'])['/credits/operations'])['get']);
  operation['x-internal-owner'] = 'billing';
  operation['parameters'] = [...(Array.isArray(operation['parameters']) ? (operation['parameters'] as unknown[]) : []), { name: 'include_archived', in: 'query', required: false, description: 'Reserved; ignored.', schema: { type: 'boolean' } }];
  record(operation['responses'])['503'] = ERROR_RESPONSE('The ledger store is unavailable; retry later.');
  record(doc['paths'])['/usage/summary'] = {
    get: {
      operationId: 'getUsageSummary',
      summary: 'Credits per feature over a window (vendor extension).',
      responses: { '200': { description: 'The summary.', content: { 'application/json': { schema: { type: 'object', additionalProperties: { type: 'number' } } } } } },
    },
  };
}

/** What the conversation variants answer, described as they answer it: a server's description follows its own choices. */
function describeVariants(doc: Json, state: ReferenceState): void {
  const v = state.variants;
  const paths = record(doc['paths']);
  if (v.has('conversation-rest-201')) {
    for (const path of ['/deal-agents/{agent_id}/messages', '/company-agents/{agent_id}/messages']) {
      const responses = record(record(record(paths[path])['post'])['responses']);
      responses['201'] = { ...record(responses['200']), description: 'The conversation response of the finished turn (§2.4).' };
    }
  }
  if (v.has('conversation-accept-406-elsewhere')) {
    for (const path of ['/me', '/credits/operations', '/message-jobs/{job_id}']) {
      record(record(record(paths[path])['get'])['responses'])['406'] = ERROR_RESPONSE('The Accept header allows no JSON answer.');
    }
  }
  const poll = record(record(record(paths['/message-jobs/{job_id}'])['get'])['responses']);
  if (v.has('conversation-other-workspace-403')) poll['403'] = ERROR_RESPONSE("The job belongs to another workspace.");
  if (v.has('conversation-job-payload-other')) {
    record(record(doc['components'])['schemas'])['MessageJob'] = {
      type: 'object',
      required: ['job_id', 'state'],
      properties: {
        job_id: { type: 'string' },
        state: { type: 'string', enum: ['pending', 'in_progress', 'succeeded', 'failed'] },
        job: { type: 'object' },
        output: { $ref: '#/components/schemas/ConversationResponse' },
      },
    };
  }
}

/** The document with the reference's defects of the served description applied. */
function applyDefects(doc: Json, state: ReferenceState): Json {
  const d = state.defects;
  // Contradictions of the service's own bodies: the last page's null cursor, request_id in every error.
  if (d.has('openapi-next-cursor-string')) record(schema(doc, 'CreditsOperations')['properties'])['next_cursor'] = { type: 'string', description: 'Opaque cursor for the next page.' };
  if (d.has('openapi-error-closed')) {
    const error = record(record(schema(doc, 'Error')['properties'])['error']);
    error['additionalProperties'] = false;
    error['required'] = ['code', 'category', 'message'];
    delete record(error['properties'])['request_id'];
  }
  if (d.has('openapi-ledger-400-undescribed')) delete record(record(record(record(doc['paths'])['/credits/operations'])['get'])['responses'])['400'];
  if (d.has('openapi-version-3-0')) doc['openapi'] = '3.0.3';
  // A response without its required `description`: the OAS 3.1 schema rejects it.
  if (d.has('openapi-invalid-document')) delete record(record(record(record(record(doc['paths'])['/health'])['get'])['responses'])['200'])['description'];
  if (d.has('openapi-ledger-limit-bound')) ledgerParameter(doc, 'limit')['maximum'] = 100;
  if (d.has('openapi-ledger-bounds-omitted')) {
    delete ledgerParameter(doc, 'feature')['minLength'];
    delete ledgerParameter(doc, 'feature')['maxLength'];
  }
  if (d.has('openapi-ledger-operation-missing')) delete record(doc['paths'])['/credits/operations'];
  return doc;
}

const rendered = new WeakMap<ReferenceState, Map<string, { json: string; yaml: string }>>();

/** The document the reference serves: the contract, its own server URL and its own routes. */
export function servedDocument(ctx: ExchangeContext): { json: string; yaml: string } {
  const host = ctx.header('host') ?? '127.0.0.1';
  const byHost = rendered.get(ctx.state) ?? new Map<string, { json: string; yaml: string }>();
  rendered.set(ctx.state, byHost);
  const cached = byHost.get(host);
  if (cached !== undefined) return cached;

  const doc = structuredClone(contract());
  doc['servers'] = [{ url: `http://${host}/v1`, description: 'asi-conformance reference implementation' }];
  doc['paths'] = { ...record(doc['paths']), ...referencePaths() };
  const components = record(doc['components']);
  components['schemas'] = { ...record(components['schemas']), ...referenceSchemas() };
  describeIpLimiter(doc);
  if (ctx.state.variants.has('openapi-extra-content')) addVendorContent(doc);
  describeVariants(doc, ctx.state);
  applyDefects(doc, ctx.state);

  const yamlDoc = ctx.state.defects.has('openapi-yaml-differs') ? { ...doc, info: { ...record(doc['info']), title: 'Agents Service Interface (YAML edition)' } } : doc;
  const out = { json: JSON.stringify(doc, null, 2), yaml: stringify(yamlDoc) };
  // Host headers come from clients: keep a handful of renderings, not one per value ever seen.
  if (byHost.size >= 8) byHost.clear();
  byHost.set(host, out);
  return out;
}

/**
 * GET /openapi.json and /openapi.yaml. They are public routes (§4.2): server.ts skips bearer
 * auth for them, so the defect that demands a token is played here.
 */
export function serveOpenapi(ctx: ExchangeContext, format: 'json' | 'yaml'): void {
  if (format === 'json' && ctx.state.defects.has('openapi-json-requires-token') && ctx.header('authorization') === undefined) {
    return ctx.sendError(401, 'auth.token_missing', 'permanent', 'The Authorization header is missing.', undefined, { 'www-authenticate': 'Bearer' });
  }
  const document = servedDocument(ctx);
  // Variant: both documents served as plain text, as a static file server may; the spec fixes no media type.
  const plain = ctx.state.variants.has('openapi-documents-text-plain') ? { 'content-type': 'text/plain; charset=utf-8' } : undefined;
  if (format === 'json') return ctx.send(200, document.json, plain ?? { 'content-type': 'application/json; charset=utf-8' });
  // Defect: a hand-kept YAML file gone bad: a tab in the indentation and `paths` given twice.
  const yaml = ctx.state.defects.has('openapi-yaml-unparseable') ? `${document.yaml}paths:\n\t/broken: {}\n` : document.yaml;
  ctx.send(200, yaml, plain ?? { 'content-type': 'application/yaml; charset=utf-8' });
}
