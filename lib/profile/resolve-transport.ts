import { X509Certificate, createPrivateKey } from 'node:crypto';
import { dirname, relative, resolve } from 'node:path';
import { ProfileError, UsageError } from '../errors.ts';
import type { ExtraHeader, ProxyChoice, ProxySettings, TlsMaterial, TransportOptions } from '../http/transport.ts';
import type { ProfileFile } from './profile-file.ts';
import { looksLikeToken, MIN_SECRET_LENGTH } from './secret-text.ts';
import { readUserFile } from '../user-file.ts';

/** The run command's transport flags, as given. */
export interface TransportFlags {
  /** `--header 'Name: value'`, in order; a value `$VAR` is read from the environment. */
  headers: string[];
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

export interface TransportInput {
  baseUrl: string;
  /** The profile's `headers` and `tls`, with its file: paths there are relative to it. */
  profile?: { file: string; headers?: ProfileFile['headers']; tls?: ProfileFile['tls'] };
  flags: TransportFlags;
  env: NodeJS.ProcessEnv;
  /** Folder that flag paths are relative to, and that curl lines' paths are written from. */
  cwd: string;
}

export interface ResolvedTransport {
  transport: TransportOptions;
  /** What the user should know (a proxy in use, TLS files an http target does not need). */
  notices: string[];
}

/** Where a setting came from: a flag (usage error) or a profile key (profile error), for one-line errors. */
type Origin = { kind: 'flag'; flag: string } | { kind: 'profile'; file: string; key: string };

function failure(origin: Origin, message: string): Error {
  return origin.kind === 'flag' ? new UsageError(`run: ${origin.flag} ${message}`) : new ProfileError(origin.file, origin.key, message);
}

function fail(origin: Origin, message: string): never {
  throw failure(origin, message);
}

// RFC 9110 §5.6.2: a field name is a token.
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ENV_REFERENCE = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})$/;

/** Headers a user may not set, and why. Values are never echoed: they may be credentials. */
const REFUSED_HEADERS: Record<string, string> = {
  authorization:
    "is refused: the harness sets Authorization itself, test by test, from the profile's tokens (some tests send another token or none on purpose); give the token as tokens.primary or in ASI_TOKEN",
  'proxy-authorization': 'is refused: give proxy credentials in the proxy URL (HTTPS_PROXY=http://user:password@proxy:3128)',
  accept: 'is refused: tests choose it request by request (§1: Accept: text/event-stream chooses streaming)',
  'content-type': 'is refused: tests choose it request by request',
  host: 'is refused: the HTTP client sets it from base_url',
  'content-length': 'is refused: the HTTP client sets it',
  'transfer-encoding': 'is refused: the HTTP client sets it',
  connection: 'is refused: the HTTP client manages connections',
  'keep-alive': 'is refused: the HTTP client manages connections',
  upgrade: 'is refused: the HTTP client manages connections',
  te: 'is refused: the HTTP client manages it',
  expect: 'is refused: the HTTP client manages it',
};

/** Header names that carry credentials: an API key, a token, a session. */
const CREDENTIAL_NAME = /(?:^|[-_])(?:api-?key|key|token|secret|password|passwd|auth|credentials?|session|signature)(?:$|[-_])|^cookie$/i;

/**
 * A literal value is not a secret: every report, curl line and record shows it. One that reads as
 * a credential (a header named like one, or an ASI token) must come from a variable instead, which
 * makes it a secret. A short one is let through: it could not be redacted, and is no credential.
 */
function literalCredential(origin: Origin, name: string, value: string): void {
  if (value.length < MIN_SECRET_LENGTH || !(CREDENTIAL_NAME.test(name) || looksLikeToken(value))) return;
  const how = origin.kind === 'flag' ? `'${name}: $VAR'` : `${name}: { env: VAR }`;
  fail(origin, `${name}: a literal value for a credential would be written into every report; give it from a variable (${how}), which redacts it`);
}

function checkedHeader(origin: Origin, name: string, value: string, placeholder: string | undefined): ExtraHeader {
  if (!FIELD_NAME.test(name)) fail(origin, `${JSON.stringify(name)} is not a header name (letters, digits and !#$%&'*+-.^_\`|~ only)`);
  const refused = REFUSED_HEADERS[name.toLowerCase()];
  if (refused !== undefined) fail(origin, `${name} ${refused}`);
  if (/[\r\n\0]/.test(value)) fail(origin, `${name}: the value holds a line break or NUL, which no header may`);
  return { name: name.toLowerCase(), value, ...(placeholder === undefined ? {} : { placeholder }) };
}

/**
 * A value from the environment is a secret: redacted wherever it appears, and the reports refuse
 * to hold it. A short one would be found inside unrelated text, hence the minimum.
 */

/** Why a variable gives no value: CI passes a secret it does not have as an empty string, which is not the same fix as a missing export. */
function missingVariable(variable: string, raw: string | undefined): string {
  return `environment variable ${variable} is ${raw === undefined ? 'not set' : 'set but empty'}`;
}

function fromEnv(origin: Origin, name: string, variable: string, env: NodeJS.ProcessEnv): ExtraHeader {
  const value = env[variable]?.trim();
  if (value === undefined || value === '') fail(origin, `${name}: ${missingVariable(variable, env[variable])} (export ${variable}=<value>)`);
  if (value.length < MIN_SECRET_LENGTH) {
    fail(origin, `${name}: the value of ${variable} is shorter than ${MIN_SECRET_LENGTH} characters, too short to redact as a secret; if it is not one, give it literally`);
  }
  return checkedHeader(origin, name, value, `$${variable}`);
}

function profileHeaders(input: TransportInput): ExtraHeader[] {
  const p = input.profile;
  const out: ExtraHeader[] = [];
  for (const [name, source] of Object.entries(p?.headers ?? {})) {
    const origin: Origin = { kind: 'profile', file: p!.file, key: 'headers' };
    const header = typeof source === 'string' ? checkedHeader(origin, name, source, undefined) : fromEnv(origin, name, source.env, input.env);
    if (typeof source === 'string') literalCredential(origin, name, source);
    if (out.some((h) => h.name === header.name)) fail(origin, `${name} is given twice (header names are case-insensitive)`);
    out.push(header);
  }
  return out;
}

function flagHeaders(input: TransportInput): ExtraHeader[] {
  const out: ExtraHeader[] = [];
  for (const line of input.flags.headers) {
    const colon = line.indexOf(':');
    if (colon <= 0) fail({ kind: 'flag', flag: '--header' }, `expects 'Name: value', got a text without a name before ':'`);
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    const origin: Origin = { kind: 'flag', flag: '--header' };
    const ref = ENV_REFERENCE.exec(value);
    const header = ref === null ? checkedHeader(origin, name, value, undefined) : fromEnv(origin, name, (ref[1] ?? ref[2])!, input.env);
    if (ref === null) literalCredential(origin, name, value);
    if (out.some((h) => h.name === header.name)) fail(origin, `${name} is given twice`);
    out.push(header);
  }
  return out;
}

/** Profile headers, then flags: a flag replaces the profile's header of the same name. */
function headersOf(input: TransportInput): ExtraHeader[] {
  const flags = flagHeaders(input);
  return [...profileHeaders(input).filter((h) => !flags.some((f) => f.name === h.name)), ...flags];
}

interface PemFile {
  text: string;
  /** Relative to the working folder, for curl lines. */
  shown: string;
}

function readPem(origin: Origin, path: string, base: string, cwd: string): PemFile {
  const absolute = resolve(base, path);
  const text = readUserFile(absolute, (message) => failure(origin, `${path}: ${message}`));
  return { text, shown: relative(cwd, absolute) || '.' };
}

const CERTIFICATE = /-----BEGIN CERTIFICATE-----/;
const PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;

/** A TLS file setting from a flag (relative to the working folder) or else the profile (relative to it). */
function tlsFile(input: TransportInput, flag: string, flagValue: string | undefined, key: 'ca_file' | 'cert_file' | 'key_file'): { origin: Origin; file: PemFile } | undefined {
  if (flagValue !== undefined) {
    const origin: Origin = { kind: 'flag', flag };
    return { origin, file: readPem(origin, flagValue, input.cwd, input.cwd) };
  }
  const p = input.profile;
  const path = p?.tls?.[key];
  if (p === undefined || path === undefined) return undefined;
  const origin: Origin = { kind: 'profile', file: p.file, key: `tls.${key}` };
  return { origin, file: readPem(origin, path, dirname(resolve(input.cwd, p.file)), input.cwd) };
}

/**
 * CA bundle, client certificate and key, checked here so that a wrong file is a one-line error
 * naming it (exit 2), not a handshake failure later.
 */
function tlsOf(input: TransportInput): TlsMaterial | undefined {
  const ca = tlsFile(input, '--ca-file', input.flags.caFile, 'ca_file');
  const cert = tlsFile(input, '--cert-file', input.flags.certFile, 'cert_file');
  const key = tlsFile(input, '--key-file', input.flags.keyFile, 'key_file');
  if (ca === undefined && cert === undefined && key === undefined) return undefined;
  const tls: TlsMaterial = { files: {} };
  if (ca !== undefined) {
    if (!CERTIFICATE.test(ca.file.text)) fail(ca.origin, `${ca.file.shown}: not a PEM certificate bundle (no -----BEGIN CERTIFICATE----- line)`);
    tls.ca = ca.file.text;
    tls.files.cacert = ca.file.shown;
  }
  if (key !== undefined && cert === undefined) fail(key.origin, 'needs a client certificate too (--cert-file or tls.cert_file)');
  if (cert !== undefined) {
    if (!CERTIFICATE.test(cert.file.text)) fail(cert.origin, `${cert.file.shown}: not a PEM certificate (no -----BEGIN CERTIFICATE----- line)`);
    // curl's --cert takes a file holding both; so does this.
    const keyFile = key ?? (PRIVATE_KEY.test(cert.file.text) ? cert : undefined);
    if (keyFile === undefined) fail(cert.origin, 'needs its private key (--key-file or tls.key_file), or a PEM file holding both');
    if (!PRIVATE_KEY.test(keyFile.file.text)) fail(keyFile.origin, `${keyFile.file.shown}: not a PEM private key (no -----BEGIN ... PRIVATE KEY----- line)`);
    const passphrase = passphraseOf(input);
    checkKeyPair(keyFile.origin, cert.file, keyFile.file, passphrase?.value);
    tls.cert = cert.file.text;
    tls.key = keyFile.file.text;
    tls.files.cert = cert.file.shown;
    if (key !== undefined) tls.files.key = key.file.shown;
    if (passphrase !== undefined) tls.passphrase = passphrase;
  }
  return tls;
}

function passphraseOf(input: TransportInput): { value: string; placeholder: string } | undefined {
  const p = input.profile;
  const variable = p?.tls?.passphrase?.env;
  if (p === undefined || variable === undefined) return undefined;
  const value = input.env[variable];
  if (value === undefined || value === '') fail({ kind: 'profile', file: p.file, key: 'tls.passphrase' }, missingVariable(variable, value));
  return { value, placeholder: `$${variable}` };
}

function checkKeyPair(origin: Origin, cert: PemFile, key: PemFile, passphrase: string | undefined): void {
  // PKCS#8 `ENCRYPTED PRIVATE KEY` or a traditional key with `Proc-Type: 4,ENCRYPTED`.
  const encrypted = /ENCRYPTED/.test(key.text);
  if (encrypted && passphrase === undefined) fail(origin, `${key.shown}: the key is encrypted: give tls.passphrase: { env: VAR } in the profile`);
  let privateKey;
  try {
    privateKey = createPrivateKey({ key: key.text, ...(passphrase === undefined ? {} : { passphrase }) });
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'unreadable';
    fail(origin, `${key.shown}: ${encrypted ? 'the passphrase does not open the key' : `not a usable private key (${code})`}`);
  }
  if (!new X509Certificate(cert.text).checkPrivateKey(privateKey)) fail(origin, `${key.shown}: this key does not belong to the certificate ${cert.shown}`);
}

function proxyVariable(env: NodeJS.ProcessEnv, names: string[]): ProxyChoice | undefined {
  for (const variable of names) {
    const url = env[variable]?.trim();
    if (url === undefined || url === '') continue;
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    // The value is not echoed: a proxy URL may carry credentials.
    if (parsed === undefined || !/^(https?|socks5?):$/.test(parsed.protocol)) {
      throw new UsageError(`run: ${variable} is not a proxy URL; expected for example http://proxy.example.com:3128`);
    }
    return { url, variable };
  }
  return undefined;
}

/** Proxies as undici's EnvHttpProxyAgent reads them: lower case first, HTTP_PROXY also for https. */
function proxyOf(env: NodeJS.ProcessEnv): ProxySettings | undefined {
  const http = proxyVariable(env, ['http_proxy', 'HTTP_PROXY']);
  const https = proxyVariable(env, ['https_proxy', 'HTTPS_PROXY']) ?? http;
  if (http === undefined && https === undefined) return undefined;
  const noProxy = [env['no_proxy'], env['NO_PROXY']].find((v) => v !== undefined && v.trim() !== '');
  return { ...(https === undefined ? {} : { https }), ...(http === undefined ? {} : { http }), ...(noProxy === undefined ? {} : { noProxy }) };
}

/**
 * Extra headers, TLS material and proxy for a run, from the profile, the flags and the
 * environment. Every mistake is one line naming the flag or key (exit 2); no value of a header
 * or a secret is ever echoed.
 */
export function resolveTransport(input: TransportInput): ResolvedTransport {
  const notices: string[] = [];
  const transport: TransportOptions = { headers: headersOf(input) };
  const tls = tlsOf(input);
  const https = new URL(input.baseUrl).protocol === 'https:';
  if (tls !== undefined) {
    if (https) transport.tls = tls;
    else notices.push(`TLS files are not used: base_url ${input.baseUrl} is plain http`);
  }
  const proxy = proxyOf(input.env);
  if (proxy !== undefined) {
    transport.proxy = proxy;
    const choice = https ? proxy.https : proxy.http;
    if (choice !== undefined) {
      const host = new URL(choice.url).host;
      notices.push(`requests go through the proxy in ${choice.variable} (${host})${proxy.noProxy === undefined || proxy.noProxy === '' ? '' : ' unless NO_PROXY lists the target'}`);
    }
  }
  return { transport, notices };
}
