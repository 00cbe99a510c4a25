import { bundledReport, exchangeRecord } from '../certification/bundled-report.ts';
import { JUDGEMENTS_RECORD } from '../certification/bundle-layout.ts';
import { openBundle } from '../certification/open-bundle.ts';
import { verifyBundle } from '../certification/verify-bundle.ts';
import { requirementIds } from '../catalogue/selection.ts';
import { BundleError, MissingTokenError, TargetUnreachableError, UsageError } from '../errors.ts';
import { HttpClient, limitsForTimeout } from '../http/client.ts';
import { transportSecrets } from '../http/transport.ts';
import { placeholderName, placeholdersIn, withSecrets } from '../http/placeholders.ts';
import { Redactor, type Secret } from '../http/redactor.ts';
import { isJudgementLine } from '../judgement/rederive.ts';
import { replayRequirement, type ReplayedJudgement, type ReplayRequest } from '../judgement/replay.ts';
import type { Exchange } from '../model/exchange.ts';
import type { Finding } from '../model/finding.ts';
import { loadProfileFile } from '../profile/load-profile.ts';
import { DEFAULT_TOKEN_ENV } from '../profile/profile-file.ts';
import { resolveProfile } from '../profile/resolve-profile.ts';
import { resolveTransport } from '../profile/resolve-transport.ts';
import { commandPrefix, shellWord } from '../invocation.ts';
import { consoleText } from '../report/console-text.ts';
import { REPLAY_HELP } from './help.ts';
import { integerOption, parseOptions, validateBaseUrl } from './parse-options.ts';
import { TRANSPORT_OPTIONS, transportFlags } from './transport-flags.ts';
import { VERDICT_MARK } from '../model/words.ts';

/** The tokens the run's report names (`$ASI_TOKEN` for primary...), read from this shell's environment. */
function tokensFromEnvironment(profile: unknown, env: NodeJS.ProcessEnv): Record<string, Secret> {
  const named = typeof profile === 'object' && profile !== null ? (profile as { tokens?: Record<string, unknown> }).tokens : undefined;
  const out: Record<string, Secret> = {};
  for (const [role, placeholder] of Object.entries(named ?? {})) {
    if (typeof placeholder !== 'string' || !placeholder.startsWith('$')) continue;
    const value = env[placeholder.slice(1)]?.trim();
    if (value !== undefined && value !== '') out[role] = { value, placeholder };
  }
  return out;
}

/** Every placeholder string the run's profile recorded (`$ASI_TOKEN` for a token, `$GATEWAY_KEY` for a header). */
function recordedPlaceholders(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') {
    if (placeholderName(value) !== undefined) out.add(value);
  } else if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) recordedPlaceholders(v, out);
  }
  return out;
}

function findingLine(f: Finding): string {
  const said = f.verdict === 'fail' || f.verdict === 'warn' ? `expected ${f.expected ?? '?'}; actual ${f.actual ?? '?'}` : (f.note ?? '');
  return `${VERDICT_MARK[f.verdict]} ${f.verdict.padEnd(12)} ${said}`.trimEnd();
}

/** The requests sent again, the first three named. */
function sentLabel(requests: readonly string[]): string {
  if (requests.length === 0) return '';
  const named = requests.slice(0, 3).join(', ');
  return ` (${named}${requests.length > 3 ? `, and ${requests.length - 3} more` : ''})`;
}

function judgementLines(r: ReplayedJudgement): string[] {
  const head = `  judgement ${r.judgement} (${r.checker})${r.skipped === undefined ? `: ${r.sent} request${r.sent === 1 ? '' : 's'} sent again${sentLabel(r.requests)}` : ''}`;
  if (r.skipped !== undefined) return [head, `    not replayed: ${r.skipped}`, ...r.then.map((f) => `    then  ${findingLine(f)}`)];
  const now = r.now.length === 0 ? ['    now   (no finding for this requirement: the checker found nothing to judge)'] : r.now.map((f) => `    now   ${findingLine(f)}`);
  return [head, ...r.then.map((f) => `    then  ${findingLine(f)}`), ...now];
}

/**
 * `asi-conformance replay BUNDLE --only ID --base-url URL`: a requirement's recorded requests sent
 * again to a server (a fix on its way), judged by the same checkers, then and now side by side.
 * Tokens come from this shell's environment under the variables the run named, never from the
 * bundle. Exit 0 when every replayed judgement passes now, 1 when one still fails, 3 when nothing
 * could be replayed, the server never answered, or a judgement found nothing to judge now; 2 for a
 * token the run used that this shell has not exported.
 */
export async function replayCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    'replay',
    args,
    {
      only: { type: 'string', multiple: true },
      'base-url': { type: 'string' },
      config: { type: 'string' },
      timeout: { type: 'string' },
      ...TRANSPORT_OPTIONS,
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help === true) {
    process.stdout.write(`${REPLAY_HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(`replay: expected one bundle (a .tar.gz or a bundle folder), got ${positionals.length}; see 'asi-conformance replay --help'`);
  const ids = requirementIds('only', values.only ?? [], 'replay');
  if (ids.length === 0) throw new UsageError('replay: --only ID names the requirement to replay (the ids a report shows); see asi-conformance replay --help');
  const raw = values.config === undefined ? undefined : loadProfileFile(values.config);
  const profile = values.config === undefined || raw === undefined ? undefined : resolveProfile(values.config, raw);
  const baseUrl = values['base-url'] ?? profile?.profile.baseUrl;
  if (baseUrl === undefined) throw new UsageError('replay: --base-url URL (or --config FILE) names the server to replay against');
  validateBaseUrl('replay', baseUrl);
  const timeoutS = integerOption('replay', 'timeout', values.timeout, 1, 600);
  // The way to the server as `run` takes it: headers, TLS files, a proxy from the environment.
  const { transport, notices } = resolveTransport({
    baseUrl,
    ...(values.config === undefined || raw === undefined ? {} : { profile: { file: values.config, headers: raw.headers, tls: raw.tls } }),
    flags: transportFlags(values),
    env: process.env,
    cwd: process.cwd(),
  });

  const bundle = openBundle(positionals[0]!);
  const verification = await verifyBundle(bundle);
  if (!verification.intact) {
    const first = verification.problems[0];
    throw new BundleError(positionals[0]!, `does not verify (${first === undefined ? `see ${commandPrefix()} verify ${shellWord(positionals[0]!)}` : `${first.file}: ${first.message}`}); its record cannot be trusted to replay`);
  }
  const read = bundledReport(bundle);
  const exchanges = exchangeRecord(bundle);
  if ('problem' in read || exchanges === undefined) throw new BundleError(positionals[0]!, 'holds no readable report or exchange record');
  const judgements = (bundle.recordLines(JUDGEMENTS_RECORD) ?? []).flatMap((l) => (isJudgementLine(l.value) ? [l.value] : []));
  const report = read.report;
  const tokens = profile?.tokens ?? tokensFromEnvironment(report.meta.profile, process.env);
  // The recorded requests carry placeholders where the run sent secrets: tokens, and header
  // values from the environment (a gateway key), put back from this shell for the wire only.
  const secrets = [...Object.values(tokens), ...transportSecrets(transport)];
  const redactor = new Redactor(secrets);
  for (const n of notices) process.stderr.write(`${redactor.redact(`note: ${n}`)}\n`);
  const supplied = new Set(secrets.map((s) => s.placeholder));
  const known = new Set([...recordedPlaceholders(report.meta.profile), ...supplied]);
  const client = new HttpClient({ baseUrl, tokens, transport, ...(timeoutS === undefined ? {} : { limits: limitsForTimeout(timeoutS) }) });
  let sent = 0;
  let answered = 0;
  // A request the run sent with a secret this shell has not exported (a token in a header, the
  // query string, a cookie or the body; a header of the run's own) would go out with the
  // variable's name in its place, and the server's refusal of it would read as the fix.
  const check = (requests: readonly ReplayRequest[]): void => {
    const missing = unsuppliedPlaceholders(requests, known, supplied);
    if (missing !== undefined) throw unsuppliedSecret(missing.placeholder, `replay: the recorded requests carry ${missing.placeholder} in ${missing.where}`, report.meta.profile);
  };
  const send = async (r: ReplayRequest): Promise<Exchange> => {
    // A backstop of `check`: a request sent with a bearer token this shell has not exported.
    if (r.tokenRole !== undefined && tokens[r.tokenRole] === undefined) throw missingToken(r.tokenRole, report.meta.profile, `replay: ${r.method} ${r.target} was sent with a bearer token`);
    const at = r.target.indexOf('?');
    const path = at === -1 ? r.target : r.target.slice(0, at);
    const query = at === -1 ? undefined : withSecrets(r.target.slice(at + 1), secrets);
    const { authorization, ...headers } = r.headers;
    const exchange = await client.send({
      method: r.method,
      path: withSecrets(path, secrets),
      ...(query === undefined ? {} : { query }),
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, withSecrets(v, secrets)])),
      ...(authorization === undefined ? {} : { authorization: withSecrets(authorization, secrets) }),
      ...(r.body === undefined ? {} : { body: withSecrets(r.body, secrets) }),
      stream: r.stream,
      unpaced: true,
    });
    sent += 1;
    if (exchange.response !== undefined) answered += 1;
    // The token's role, as the run recorded it: the run-wide rules judge by it.
    if (r.tokenRole !== undefined) exchange.request.tokenRole = r.tokenRole;
    return exchange;
  };
  const lines: string[] = [`replaying against ${baseUrl} what run ${report.meta.runId} recorded against ${report.meta.target.baseUrl}`];
  let replayed = 0;
  let failing = 0;
  let unjudged = 0;
  try {
    for (const id of ids) {
      const results = await replayRequirement({ record: { exchanges: [...exchanges.bySeq.values()], judgements }, results: report.results, requirement: id, recordedBaseUrl: report.meta.target.baseUrl, baseUrl, send, check });
      const then = report.results.find((r) => r.requirement.id === id);
      lines.push('', `${id} (${then?.verdict ?? 'absent'} in the bundle)`);
      if (results.length === 0) lines.push('  nothing to replay: no finding of this requirement came from a recorded judgement (not run in that run?)');
      for (const r of results) {
        lines.push(...judgementLines(r));
        if (r.skipped !== undefined) continue;
        replayed += 1;
        if (r.now.some((f) => f.verdict === 'fail')) failing += 1;
        else if (!r.now.some((f) => f.verdict === 'pass' || f.verdict === 'warn')) unjudged += 1;
      }
    }
  } finally {
    await client.close();
  }
  if (sent > 0 && answered === 0) throw new TargetUnreachableError(baseUrl, `none of the ${sent} requests replayed got an answer`);
  const verdict =
    replayed === 0
      ? 'NOTHING REPLAYED'
      : failing > 0
        ? `STILL FAILING: ${failing} of ${replayed} replayed judgements found a failure`
        : unjudged > 0
          ? `NOT PROVED: ${unjudged} of ${replayed} replayed judgements judged nothing now (no answer, or nothing the rule binds)`
          : 'PASSES NOW: every replayed judgement found no failure';
  lines.push('', verdict);
  process.stdout.write(`${redactor.redact(lines.map((l) => consoleText(l)).join('\n'))}\n`);
  return replayed === 0 ? 3 : failing > 0 ? 1 : unjudged > 0 ? 3 : 0;
}

/** The parts of a request a placeholder can be written in, each named as a reader finds it. */
function requestParts(r: ReplayRequest): Array<[string, string]> {
  const at = r.target.indexOf('?');
  return [
    ['the path', at === -1 ? r.target : r.target.slice(0, at)],
    ['the query string', at === -1 ? '' : r.target.slice(at + 1)],
    ...Object.entries(r.headers).map(([name, value]): [string, string] => [`the ${name} header`, `${name}: ${value}`]),
    ['the body', r.body ?? ''],
  ];
}

/**
 * The first placeholder the requests carry that this shell does not fill, and every part of a
 * request it is written in, each with the first request that has it there.
 */
function unsuppliedPlaceholders(requests: readonly ReplayRequest[], known: ReadonlySet<string>, supplied: ReadonlySet<string>): { placeholder: string; where: string } | undefined {
  let first: string | undefined;
  const places = new Map<string, string>();
  for (const r of requests) {
    for (const [part, text] of requestParts(r)) {
      for (const p of placeholdersIn(text, known)) {
        if (supplied.has(p) || (first !== undefined && p !== first)) continue;
        first = p;
        if (!places.has(part)) places.set(part, `${r.method} ${r.target}`);
      }
    }
  }
  return first === undefined ? undefined : { placeholder: first, where: [...places].map(([part, request]) => `${part} (${request})`).join(', ') };
}

/** The variable a placeholder stands for is not in this shell: the token's role when it is one, as `run` says it. */
function unsuppliedSecret(placeholder: string, needed: string, profile: unknown): MissingTokenError | UsageError {
  const tokens = typeof profile === 'object' && profile !== null ? (profile as { tokens?: Record<string, unknown> }).tokens : undefined;
  const variable = placeholder.slice(1);
  const missing = process.env[variable]?.trim() === '' ? 'empty' : 'unset';
  const role = Object.entries(tokens ?? {}).find(([, p]) => p === placeholder)?.[0] ?? Object.entries(DEFAULT_TOKEN_ENV).find(([, v]) => v === variable)?.[0];
  if (role !== undefined || variable.startsWith('ASI_TOKEN')) return new MissingTokenError(role ?? variable.toLowerCase(), variable, missing, needed);
  return new UsageError(`${needed}, a secret of the run that this replay does not supply (export ${variable} and give the header or proxy the run gave)`);
}

/** The role's token is not in this shell: the variable the run named for it, as `run` says it. */
function missingToken(role: string, profile: unknown, needed: string): MissingTokenError {
  const named = typeof profile === 'object' && profile !== null ? (profile as { tokens?: Record<string, unknown> }).tokens?.[role] : undefined;
  const variable = typeof named === 'string' && named.startsWith('$') ? named.slice(1) : `the variable of tokens.${role}`;
  return new MissingTokenError(role, variable, process.env[variable]?.trim() === '' ? 'empty' : 'unset', needed);
}
