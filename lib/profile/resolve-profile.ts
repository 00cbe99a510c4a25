import { ProfileError, MissingTokenError } from '../errors.ts';
import type { Secret } from '../http/redactor.ts';
import { READ_LIMIT, WINDOW_SECONDS, WRITE_LIMIT } from '../spec-constants.ts';
import { defaultMaxInFlight } from '../suite/spend-in-flight.ts';
import { TOKEN_ROLES, type ProfileFile, type TokenSource } from './profile-file.ts';
import { describeSecret, looksLikeToken, MIN_SECRET_LENGTH } from './secret-text.ts';
import type { FaultName, MessageRoute, ResolvedProfile } from './resolved-profile.ts';

export interface ResolvedTarget {
  profile: ResolvedProfile;
  /** Token values by role, with the shell placeholder that stands for each in every output. */
  tokens: Record<string, Secret>;
  /** Things worth telling the user that do not stop the run (an optional token not set, ...). */
  notices: string[];
  /** Why a token role has no token, in words a not-run verdict can carry: `tokens.revoked: ASI_TOKEN_REVOKED is empty`. */
  missingTokens: Record<string, string>;
}

function fillTemplate(file: string, key: string, template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new ProfileError(file, `${key}.params`, `no value for the placeholder {${name}} in path ${template}`);
    return encodeURIComponent(value);
  });
}

/** A token, or why there is none: CI passes an empty string for a secret it does not have, which counts as missing. */
function resolveToken(role: string, source: TokenSource, env: NodeJS.ProcessEnv): Secret | { missing: 'unset' | 'empty' } {
  if ('value' in source) return { value: source.value, placeholder: `$ASI_TOKEN_${role.toUpperCase()}` };
  const value = env[source.env];
  if (value === undefined) return { missing: 'unset' };
  if (value.trim() === '') return { missing: 'empty' };
  return { value: value.trim(), placeholder: `$${source.env}` };
}

/**
 * Applies defaults and reads tokens from the environment. The primary token is required; an
 * optional token whose variable is unset only means its checks report not-run.
 */
export function resolveProfile(file: string, raw: ProfileFile, env: NodeJS.ProcessEnv = process.env): ResolvedTarget {
  const credentials = urlCredentialsProblem(raw.base_url);
  if (credentials !== undefined) throw new ProfileError(file, 'base_url', credentials);
  const notices: string[] = [];
  const tokens: Record<string, Secret> = {};
  const missingTokens: Record<string, string> = {};
  for (const role of TOKEN_ROLES) {
    const source = raw.tokens[role];
    if (source === undefined) {
      missingTokens[role] = `the profile names no ${role} token (tokens.${role})`;
      continue;
    }
    if ('env' in source && looksLikeToken(source.env)) {
      // A token pasted where the variable's name belongs: say so without printing it back.
      throw new ProfileError(file, `tokens.${role}.env`, `expected the name of an environment variable, got what looks like a token (${describeSecret(source.env)}); write { env: ASI_TOKEN } and export ASI_TOKEN=<token>`);
    }
    const secret = resolveToken(role, source, env);
    if ('value' in secret) {
      const where = 'env' in source ? source.env : `tokens.${role}.value`;
      // It goes into the Authorization header of every request: a character no header may hold would end the run at its first one.
      if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(secret.value)) {
        throw new ProfileError(file, `tokens.${role}`, `${where} holds a line break or another control character, which no header may (a token pasted with its line end?)`);
      }
      if (secret.value.length < MIN_SECRET_LENGTH) {
        throw new ProfileError(file, `tokens.${role}`, `${where} holds ${secret.value.length} character${secret.value.length === 1 ? '' : 's'}, too short to be a token (§5.2: <prefix>_live_<hex>; at least ${MIN_SECRET_LENGTH})`);
      }
      tokens[role] = secret;
      continue;
    }
    const envVar = 'env' in source ? source.env : '';
    if (role === 'primary') throw new MissingTokenError(role, envVar, secret.missing);
    missingTokens[role] = `tokens.${role}: ${envVar} is ${secret.missing === 'empty' ? 'set but empty' : 'not set'}`;
    notices.push(`${missingTokens[role]}; checks that need a ${role} token will report not-run`);
  }
  const routes: MessageRoute[] = (raw.messages?.routes ?? []).map((r, i) => ({
    template: r.path,
    path: fillTemplate(file, `messages.routes[${i}]`, r.path, r.params ?? {}),
    body: r.body,
  }));
  const limits = {
    read: raw.limits?.read ?? READ_LIMIT,
    write: raw.limits?.write ?? WRITE_LIMIT,
    windowS: raw.limits?.window_s ?? WINDOW_SECONDS,
  };
  const certifying = limits.read === READ_LIMIT && limits.write === WRITE_LIMIT && limits.windowS === WINDOW_SECONDS;
  if (!certifying) notices.push(`limits differ from the spec's (${READ_LIMIT}/${WRITE_LIMIT} per ${WINDOW_SECONDS}s): this run is not a certification`);
  const baseUrl = raw.base_url.replace(/\/+$/, '');
  if (!/\/v1$/.test(baseUrl)) notices.push(`base_url ${baseUrl} does not end in /v1 (§9.1: the version is the last segment of base_url)`);
  const faults: Partial<Record<FaultName, { enable: string; disable: string }>> = {};
  for (const [name, hook] of Object.entries(raw.faults ?? {})) faults[name as FaultName] = { enable: hook.enable, disable: hook.disable };
  const profile: ResolvedProfile = {
    source: file,
    baseUrl,
    tokenRoles: Object.keys(tokens),
    messages: {
      routes,
      ...(raw.messages?.async === undefined
        ? {}
        : { async: { body: raw.messages.async.body, jobIdPointer: raw.messages.async.job_id, poll: raw.messages.async.poll } }),
    },
    limits,
    pacing: { maxInFlight: raw.pacing?.max_in_flight ?? defaultMaxInFlight(limits) },
    certifying,
    faults,
    ...(raw.implementation === undefined ? {} : { implementation: { ...raw.implementation } }),
  };
  return { profile, tokens, notices, missingTokens };
}

/**
 * A base_url with a user name or password in it (`https://user:pass@host/v1`): every report, curl
 * line and record would show them. ASI authenticates with the bearer token alone; a gateway's own
 * credentials go in a header, from a variable, where the redactor knows them.
 */
export function urlCredentialsProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.username === '' && parsed.password === '') return undefined;
  return "holds a user name or password (user:…@), which every report would show; give a gateway's credentials as a header from a variable (the profile's `headers`, or --header)";
}
