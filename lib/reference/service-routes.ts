import type { ExchangeContext, Route } from './exchange-context.ts';
import { serveOpenapi } from './served-openapi.ts';

/** §4.2 and §4.3: health, the two OpenAPI documents, and token introspection. */
export function serviceRoutes(): Route[] {
  return [
    {
      path: '/health',
      methods: ['GET', 'HEAD'],
      public: true,
      // Payload not shown by the spec: the reference's choice; a load balancer's plain `OK` under the variant.
      handler: (ctx) => (ctx.state.variants.has('service-payloads-other') ? ctx.send(200, 'OK\n', { 'content-type': 'text/plain; charset=utf-8' }) : ctx.sendJson(200, { status: 'ok' })),
    },
    {
      path: '/openapi.json',
      methods: ['GET', 'HEAD'],
      public: true,
      handler: (ctx) => serveOpenapi(ctx, 'json'),
    },
    {
      path: '/openapi.yaml',
      methods: ['GET', 'HEAD'],
      public: true,
      handler: (ctx) => serveOpenapi(ctx, 'yaml'),
    },
    {
      path: '/me',
      methods: ['GET', 'HEAD'],
      // Payload not shown by the spec: the reference answers with the token's id and workspace.
      handler: (ctx) => ctx.sendJson(200, ctx.state.variants.has('service-payloads-other') ? introspection(ctx) : { token_id: ctx.token!.id, workspace_id: ctx.token!.workspace }),
    },
  ];
}

/** Variant `service-payloads-other`: another vendor's introspection record, nested, with fields of its own. */
function introspection(ctx: ExchangeContext): Record<string, unknown> {
  return { token: { id: ctx.token!.id, kind: 'live', scopes: ['credits:read', 'agents:message'] }, workspace: { id: ctx.token!.workspace, plan: 'team' }, authenticated: true };
}
