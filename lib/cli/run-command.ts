import { randomInt } from 'node:crypto';
import { relative } from 'node:path';
import { catalogue } from '../catalogue/index.ts';
import { limitsForTimeout } from '../http/client.ts';
import { Redactor } from '../http/redactor.ts';
import { HarnessError, UsageError } from '../errors.ts';
import { loadProfileFile } from '../profile/load-profile.ts';
import { DEFAULT_TOKEN_ENV, TOKEN_ROLES, type ProfileFile } from '../profile/profile-file.ts';
import { resolveProfile, type ResolvedTarget } from '../profile/resolve-profile.ts';
import { startReference, type RunningReference } from '../reference/server.ts';
import { consoleText } from '../report/console-text.ts';
import { formatFailure } from '../report/format-failure.ts';
import type { Report } from '../report/report-model.ts';
import { REPORT_FORMATS, type ReportFormat } from '../report/write-reports.ts';
import { certify } from '../runner/certify.ts';
import { embeddedTarget } from '../runner/embedded-target.ts';
import { selectSuiteFiles } from '../runner/suite-files.ts';
import { RUN_HELP } from './help.ts';
import { integerOption, parseOptions } from './parse-options.ts';

function parseFormats(value: string | undefined): ReportFormat[] {
  if (value === undefined) return [...REPORT_FORMATS];
  const list = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const f of list) {
    if (!(REPORT_FORMATS as readonly string[]).includes(f)) {
      throw new UsageError(`run: --format ${JSON.stringify(f)} is not a report format; expected a comma-separated list of ${REPORT_FORMATS.join(', ')}`);
    }
  }
  if (list.length === 0) throw new UsageError(`run: --format needs at least one of ${REPORT_FORMATS.join(', ')}`);
  return list as ReportFormat[];
}

function parseReplay(values: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new UsageError(`run: --replay expects ID=PATH (for example ledger/4.1/walk-complete=3:1:0), got ${JSON.stringify(v)}`);
    out[v.slice(0, eq)] = v.slice(eq + 1);
  }
  return out;
}

/** `--base-url` without a profile: tokens from the conventional variables, no routes, no hooks. */
function profileFromEnvironment(baseUrl: string): ProfileFile {
  const tokens: Record<string, { env: string }> = {};
  for (const role of TOKEN_ROLES) tokens[role] = { env: DEFAULT_TOKEN_ENV[role] };
  return { base_url: baseUrl, tokens: tokens as ProfileFile['tokens'] };
}

function validateBaseUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`run: --base-url ${JSON.stringify(url)} is not a URL; expected for example https://api.example.com/v1`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`run: --base-url must be http or https, got ${parsed.protocol}`);
  }
}

function summary(report: Report, dir: string, files: string[]): string {
  const c = report.counts;
  const lines: string[] = [''];
  const failures = report.results.filter((r) => r.verdict === 'fail');
  for (const r of failures) for (const f of r.findings.filter((x) => x.verdict === 'fail').slice(0, 1)) lines.push(formatFailure(f), '');
  const headline =
    report.outcome === 'conformant' ? 'CONFORMANT' : report.outcome === 'not-conformant' ? 'NOT CONFORMANT' : 'INCONCLUSIVE';
  lines.push(
    `${headline}${report.meta.certifying ? '' : ' (not a certification: limits or selection differ from a full run)'}: ` +
      `${c.pass} pass, ${c.fail} fail, ${c.warn} warn, ${c.inconclusive} inconclusive, ${c['not-run']} not run, ${c.uncovered} uncovered ` +
      `of ${report.results.length} requirements in ${(report.meta.durationMs / 1000).toFixed(1)}s (seed ${report.meta.seed})`,
  );
  for (const e of report.runErrors) lines.push(`run error: ${consoleText(e)}`);
  lines.push(`reports: ${relative(process.cwd(), dir) || dir}/ (${files.map((f) => f.split('/').pop()).join(', ')})`);
  return lines.join('\n');
}

export async function runCommand(args: string[]): Promise<number> {
  const { values } = parseOptions('run', args, {
    config: { type: 'string' },
    'base-url': { type: 'string' },
    suite: { type: 'string', multiple: true },
    only: { type: 'string', multiple: true },
    out: { type: 'string' },
    format: { type: 'string' },
    seed: { type: 'string' },
    'fail-on': { type: 'string' },
    replay: { type: 'string', multiple: true },
    timeout: { type: 'string' },
    quiet: { type: 'boolean', short: 'q' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) {
    process.stdout.write(`${RUN_HELP}\n`);
    return 0;
  }
  const failOn = values['fail-on'] ?? 'must';
  if (failOn !== 'must' && failOn !== 'should') throw new UsageError(`run: --fail-on expects must or should, got ${JSON.stringify(failOn)}`);
  const formats = parseFormats(values.format);
  const seed = integerOption('run', 'seed', values.seed, -2147483648, 2147483647) ?? randomInt(1, 2 ** 31 - 1);
  const only = values.only ?? [];
  for (const id of only) {
    if (!catalogue.some((r) => r.id === id)) throw new UsageError(`run: --only ${id} is not a requirement id; see 'asi-conformance list'`);
  }
  const files = selectSuiteFiles(values.suite ?? []);
  const timeoutS = integerOption('run', 'timeout', values.timeout, 1, 600);
  if (values['base-url'] !== undefined) validateBaseUrl(values['base-url']);

  let reference: RunningReference | undefined;
  let target: ResolvedTarget;
  // Everything printed passes the same redaction as the reports, once the tokens are known.
  let redactor = new Redactor([]);
  const progress = values.quiet === true ? () => {} : (line: string) => process.stderr.write(`${redactor.redact(line)}\n`);
  if (values.config !== undefined) {
    const raw = loadProfileFile(values.config);
    if (values['base-url'] !== undefined) raw.base_url = values['base-url'];
    target = resolveProfile(values.config, raw);
  } else if (values['base-url'] !== undefined) {
    target = resolveProfile('--base-url', profileFromEnvironment(values['base-url']));
  } else {
    reference = await startReference();
    target = embeddedTarget(reference);
    progress(`embedded reference at ${reference.baseUrl}`);
  }
  redactor = new Redactor(Object.values(target.tokens));
  for (const n of target.notices) progress(`note: ${n}`);
  progress(`certifying ${target.profile.baseUrl} with ${files.length} suites, seed ${seed}`);
  try {
    const { report, dir, files: written } = await certify({
      target,
      embedded: reference !== undefined,
      files,
      only,
      outDir: values.out ?? 'reports',
      formats,
      seed,
      failOn,
      replayPaths: parseReplay(values.replay ?? []),
      ...(timeoutS === undefined ? {} : { httpLimits: limitsForTimeout(timeoutS) }),
      progress,
      argv: ['run', ...args],
    });
    process.stdout.write(`${redactor.redact(summary(report, dir, written))}\n`);
    return report.exitCode;
  } catch (err) {
    // The CLI prints an unexpected error's message; it must not carry a token either.
    if (err instanceof HarnessError || !(err instanceof Error)) throw err;
    throw new Error(redactor.redact(err.message));
  } finally {
    await reference?.close();
  }
}
