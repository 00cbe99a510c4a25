import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogue } from '../catalogue/index.ts';
import { contractDigest } from '../contract/contract-document.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import { packageDigest } from './package-digest.ts';

/** The normative spec text the catalogue quotes: the project's own copy. */
export const SPEC_FILE = join(PACKAGE_ROOT, 'docs', 'spec', 'agents-service-interface-v1.md');

/** What a bundle records of the harness that made it, and what verify compares with its own. */
export interface HarnessIdentity {
  name: string;
  version: string;
  /** SHA-256 over the package's own files (package-digest.ts). */
  packageDigest: string;
  specDigest: string;
  catalogueDigest: string;
  /** Requirements in the catalogue. */
  requirements: number;
  contractDigest: string;
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** JSON with object keys sorted at every level: one text for one value, whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 of the catalogue as canonical JSON: the ids, levels, sections and sentences verdicts are given for. */
export function catalogueDigest(): string {
  return sha256Hex(canonicalJson(catalogue));
}

let identity: HarnessIdentity | undefined;

/** This harness: computed once per process (the package digest reads every package file). */
export function harnessIdentity(): HarnessIdentity {
  if (identity !== undefined) return identity;
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  identity = {
    name: pkg.name,
    version: pkg.version,
    packageDigest: packageDigest(),
    specDigest: sha256Hex(readFileSync(SPEC_FILE)),
    catalogueDigest: catalogueDigest(),
    requirements: catalogue.length,
    contractDigest: contractDigest(),
  };
  return identity;
}
