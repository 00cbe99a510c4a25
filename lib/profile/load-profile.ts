import type { ErrorObject } from 'ajv/dist/2020.js';
import { ProfileError } from '../errors.ts';
import { readUserYaml } from '../user-file.ts';
import type { ProfileFile } from './profile-file.ts';
import { profileValidator } from './profile-validator.ts';
import { describeSecret, keyText, looksLikeToken } from './secret-text.ts';

export { PROFILE_SCHEMA_FILE } from './profile-validator.ts';

function validate(value: unknown): ErrorObject[] {
  const validator = profileValidator();
  return validator(value) ? [] : [...(validator.errors ?? [])];
}

/** `/messages/routes/0/path` → `messages.routes[0].path`; a key that looks like a token is not shown. */
export function keyOf(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((s) => keyText(s.replace(/~1/g, '/').replace(/~0/g, '~')))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc === '' ? seg : `${acc}.${seg}`), '');
}

/** A bad value as an error shows it: quoted, unless it holds what looks like a token (then kind and length). */
function describe(value: unknown): string {
  const text = JSON.stringify(value);
  if (text !== undefined && looksLikeToken(text)) return describeSecret(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** One precise sentence for the most telling schema error: which key, what was expected, what was found. */
function explain(errors: ErrorObject[]): { key: string; message: string } {
  // A token is `{ env: VAR }` or `{ value: "..." }`: its oneOf errors read better as one sentence.
  const tokenError = errors.find((e) => /^\/tokens\/[^/]+$/.test(e.instancePath) && e.schemaPath.includes('$defs/token'));
  if (tokenError !== undefined) {
    return { key: keyOf(tokenError.instancePath), message: `expected { env: VARIABLE_NAME } or { value: "<token>" }, got ${describeSecret(tokenError.data)}` };
  }
  const hookError = errors.find((e) => e.schemaPath.includes('$defs/hook'));
  const ordered = [...errors].filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'if').sort((a, b) => b.instancePath.length - a.instancePath.length);
  const e = hookError ?? ordered.find((x) => x.keyword === 'additionalProperties') ?? ordered[0] ?? errors[0]!;
  const key = keyOf(e.instancePath);
  // Values under tokens, headers and the key's passphrase may be secrets: only their kind is shown.
  const show = /^(tokens|headers|tls\.passphrase)\b/.test(key) ? describeSecret : describe;
  const parent = e.parentSchema as { properties?: Record<string, unknown>; description?: string } | undefined;
  switch (e.keyword) {
    case 'additionalProperties': {
      const unknown = keyText((e.params as { additionalProperty: string }).additionalProperty);
      const allowed = Object.keys(parent?.properties ?? {});
      return { key: key === '' ? unknown : `${key}.${unknown}`, message: `unknown key; expected one of ${allowed.join(', ')}` };
    }
    case 'required': {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      return { key: key === '' ? missing : `${key}.${missing}`, message: 'is required but missing' };
    }
    case 'type':
      return { key, message: `expected ${(e.params as { type: string }).type}, got ${show(e.data)}` };
    case 'pattern':
      return { key, message: `${show(e.data)} is not valid${parent?.description === undefined ? ` (pattern ${(e.params as { pattern: string }).pattern})` : `: ${parent.description}`}` };
    default:
      return { key, message: `${e.message ?? 'is invalid'}, got ${show(e.data)}` };
  }
}

/** Reads and validates a profile file; every problem becomes one ProfileError naming the key. */
export function loadProfileFile(file: string): ProfileFile {
  const value = readUserYaml(file, (message) => new ProfileError(file, '', message));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ProfileError(file, '', `expected a mapping with base_url and tokens, got ${describe(value)}`);
  }
  const errors = validate(value);
  if (errors.length > 0) {
    const { key, message } = explain(errors);
    throw new ProfileError(file, key, message);
  }
  return value as ProfileFile;
}
