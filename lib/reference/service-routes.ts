import type { Route } from './exchange-context.ts';
import { serveOpenapi } from './served-openapi.ts';

/** §4.2 and §4.3: health, the two OpenAPI documents, and token introspection. */
export function serviceRoutes(): Route[] {
  return [
    {
      path: '/health',
      methods: ['GET', 'HEAD'],
      public: true,
      // Payload not shown by the spec: the reference's choice.
      handler: (ctx) => ctx.sendJson(200, { status: 'ok' }),
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
      handler: (ctx) => ctx.sendJson(200, { token_id: ctx.token!.id, workspace_id: ctx.token!.workspace }),
    },
  ];
}
