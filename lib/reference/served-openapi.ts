import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { PACKAGE_ROOT } from '../package-root.ts';
import type { ExchangeContext } from './exchange-context.ts';

let canonical: Record<string, unknown> | undefined;

/** The canonical contract (shared data, not harness code), read once. */
function contract(): Record<string, unknown> {
  canonical ??= parse(readFileSync(join(PACKAGE_ROOT, 'lib', 'contract', 'asi-v1.openapi.yaml'), 'utf8')) as Record<string, unknown>;
  return canonical;
}

/** The document the reference serves: the contract with its own server URL (and later its own routes). */
export function servedDocument(ctx: ExchangeContext): { json: string; yaml: string } {
  const host = ctx.header('host') ?? '127.0.0.1';
  const doc = structuredClone(contract());
  doc['servers'] = [{ url: `http://${host}/v1`, description: 'asi-conformance reference implementation' }];
  return { json: JSON.stringify(doc, null, 2), yaml: stringify(doc) };
}
