import type { Route } from './exchange-context.ts';
import { REFERENCE_FAULTS, type ReferenceFault } from './state.ts';

/** Admin routes answer only on loopback: they switch faults for the harness's drills. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function isFault(name: string | undefined): name is ReferenceFault {
  return name !== undefined && (REFERENCE_FAULTS as readonly string[]).includes(name);
}

/** `PUT /_admin/faults/{name}` switches a fault on, `DELETE` switches it off, `GET /_admin/faults` lists them. */
export function adminRoutes(): Route[] {
  return [
    {
      path: '/_admin/faults',
      methods: ['GET'],
      handler: (ctx) => ctx.sendJson(200, { faults: [...ctx.state.faults], available: REFERENCE_FAULTS }),
    },
    {
      path: '/_admin/faults/{name}',
      methods: ['PUT', 'POST', 'DELETE'],
      handler: (ctx) => {
        const name = ctx.params['name'];
        if (!isFault(name)) {
          return ctx.sendError(404, 'admin.unknown_fault', 'permanent', `Unknown fault "${name}"; one of ${REFERENCE_FAULTS.join(', ')}.`);
        }
        if (ctx.method === 'DELETE') ctx.state.faults.delete(name);
        else ctx.state.faults.add(name);
        ctx.sendJson(200, { faults: [...ctx.state.faults] });
      },
    },
  ];
}
