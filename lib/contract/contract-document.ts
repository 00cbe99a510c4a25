import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../package-root.ts';

/**
 * The canonical contract file. Read from the package root, not next to this module: the build
 * in dist/ compiles TypeScript only and does not copy YAML or JSON data.
 */
export const CONTRACT_FILE = join(PACKAGE_ROOT, 'lib', 'contract', 'asi-v1.openapi.yaml');

let bytes: Buffer | undefined;
let parsed: Record<string, unknown> | undefined;

function contractBytes(): Buffer {
  bytes ??= readFileSync(CONTRACT_FILE);
  return bytes;
}

/** The canonical contract as data, parsed once. Callers must not mutate it (clone first). */
export function loadContract(): Record<string, unknown> {
  parsed ??= parse(contractBytes().toString('utf8')) as Record<string, unknown>;
  return parsed;
}

/** sha256 of the contract file's bytes, hex: names the exact contract a report was made against. */
export function contractDigest(): string {
  return createHash('sha256').update(contractBytes()).digest('hex');
}
