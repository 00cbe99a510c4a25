import { randomInt } from 'node:crypto';
import { basename, isAbsolute, relative } from 'node:path';
import { limitsForTimeout } from '../http/client.ts';
import { Redactor } from '../http/redactor.ts';
import { transportSecrets } from '../http/transport.ts';
import { HarnessError, UsageError } from '../errors.ts';
import { loadProfileFile } from '../profile/load-profile.ts';
import { DEFAULT_TOKEN_ENV, TOKEN_ROLES, type ProfileFile } from '../profile/profile-file.ts';
import { resolveProfile, type ResolvedTarget } from '../profile/resolve-profile.ts';
import { resolveTransport } from '../profile/resolve-transport.ts';
import { checkWritableFolder } from '../user-file.ts';
import { startReference, validateSwitches, type RunningReference } from '../reference/server.ts';
import { loadReportFile } from '../report/baseline-diff.ts';
import { consoleSummary } from '../report/console-summary.ts';
import { loadExpectations } from '../report/expectations.ts';
import { REPORT_FORMATS, type ReportFormat } from '../report/write-reports.ts';
import { certify } from '../runner/certify.ts';
import { embeddedTarget } from '../runner/embedded-target.ts';
import { Interrupts } from '../runner/interrupts.ts';
import { requirementIds } from '../catalogue/selection.ts';
import { selectSuiteFiles } from '../runner/suite-files.ts';
import { BUNDLE_OPTIONS, bundleLine, bundleRequest } from './bundle-flags.ts';
import { RUN_HELP } from './help.ts';
import { integerOption, parseOptions, validateBaseUrl } from './parse-options.ts';
import { TRANSPORT_OPTIONS, transportFlags } from './transport-flags.ts';

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

/**
 * `--defect` and `--variant` switch the embedded reference (a demonstration, or a calibration
 * column beside a vendor's in a matrix); they mean nothing for a server the harness did not start.
 */
function referenceSwitches(values: { config?: string; 'base-url'?: string; defect?: string[]; variant?: string[] }): { defects: string[]; variants: string[] } {
  const switches = { defects: values.defect ?? [], variants: values.variant ?? [] };
  if (switches.defects.length + switches.variants.length === 0) return switches;
  const flag = switches.defects.length > 0 ? '--defect' : '--variant';
  if (values.config !== undefined || values['base-url'] !== undefined) {
    throw new UsageError(`run: ${flag} switches the embedded reference; it cannot apply to ${values.config !== undefined ? '--config' : '--base-url'} (a server the harness did not start)`);
  }
  try {
    validateSwitches(switches);
  } catch (err) {
    throw new UsageError(`run: ${(err as Error).message}`);
  }
  return switches;
}

/**
 * `--label` and `--impl-version` name the implementation under test. Without a target the run
 * tests the embedded reference, and a report (and a badge) naming anything else would certify
 * what was never tested.
 */
function refuseNameWithoutTarget(values: { config?: string; 'base-url'?: string; label?: string; 'impl-version'?: string }): void {
  if (values.config !== undefined || values['base-url'] !== undefined) return;
  const flag = values.label !== undefined ? '--label' : values['impl-version'] !== undefined ? '--impl-version' : undefined;
  if (flag === undefined) return;
  throw new UsageError(`run: ${flag} names the implementation under test, but with neither --base-url nor --config the run tests the embedded reference; give the target's --base-url (or --config)`);
}

function switchesText(switches: { defects: string[]; variants: string[] }): string {
  const parts = [...switches.defects.map((d) => `defect ${d}`), ...switches.variants.map((v) => `variant ${v}`)];
  return parts.length === 0 ? '' : ` with ${parts.join(', ')}`;
}

/**
 * `--fail-on must|should`, optionally with `coverage` after a comma (`should,coverage`), or
 * `coverage` alone (MUST then): the level whose failures fail the run, and whether a pair of the
 * exchange matrix the profile allows and the run did not reach keeps it from passing.
 */
export function parseFailOn(value: string | undefined): { failOn: 'must' | 'should'; failOnCoverage: boolean } {
  const parts = (value ?? 'must').split(',').map((p) => p.trim());
  const unknown = parts.find((p) => p !== 'must' && p !== 'should' && p !== 'coverage');
  const levels = parts.filter((p) => p === 'must' || p === 'should');
  if (unknown !== undefined || levels.length > 1 || parts.length > 2) {
    throw new UsageError(`run: --fail-on expects must or should, optionally with coverage (must,coverage), got ${JSON.stringify(value)}`);
  }
  return { failOn: levels[0] === 'should' ? 'should' : 'must', failOnCoverage: parts.includes('coverage') };
}

export async function runCommand(args: string[]): Promise<number> {
  const { values } = parseOptions('run', args, {
    config: { type: 'string' },
    'base-url': { type: 'string' },
    suite: { type: 'string', multiple: true },
    only: { type: 'string', multiple: true },
    skip: { type: 'string', multiple: true },
    expect: { type: 'string' },
    baseline: { type: 'string' },
    label: { type: 'string' },
    'impl-version': { type: 'string' },
    out: { type: 'string' },
    format: { type: 'string' },
    seed: { type: 'string' },
    'fail-on': { type: 'string' },
    replay: { type: 'string', multiple: true },
    timeout: { type: 'string' },
    defect: { type: 'string', multiple: true },
    variant: { type: 'string', multiple: true },
    ...BUNDLE_OPTIONS,
    ...TRANSPORT_OPTIONS,
    quiet: { type: 'boolean', short: 'q' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) {
    process.stdout.write(`${RUN_HELP}\n`);
    return 0;
  }
  const { failOn, failOnCoverage } = parseFailOn(values['fail-on']);
  const formats = parseFormats(values.format);
  const seed = integerOption('run', 'seed', values.seed, -2147483648, 2147483647) ?? randomInt(1, 2 ** 31 - 1);
  const only = requirementIds('only', values.only ?? []);
  const skip = requirementIds('skip', values.skip ?? []);
  const both = only.filter((id) => skip.includes(id));
  if (both.length > 0) throw new UsageError(`run: ${both[0]} is given to both --only and --skip; choose one`);
  const files = selectSuiteFiles(values.suite ?? []);
  const expectations = values.expect === undefined ? undefined : { file: values.expect, entries: loadExpectations(values.expect) };
  const baseline = values.baseline === undefined ? undefined : { file: values.baseline, report: loadReportFile(values.baseline) };
  const timeoutS = integerOption('run', 'timeout', values.timeout, 1, 600);
  if (values['base-url'] !== undefined) validateBaseUrl('run', values['base-url']);
  const outDir = values.out ?? 'reports';
  // Before any reference starts or request goes: a run that cannot write its reports does not start.
  checkWritableFolder(outDir, (message) => new UsageError(`run: --out ${JSON.stringify(outDir)} ${message}`));
  refuseNameWithoutTarget(values);
  const switches = referenceSwitches(values);
  const bundle = await bundleRequest(values);

  let reference: RunningReference | undefined;
  let target: ResolvedTarget | undefined;
  let raw: ProfileFile | undefined;
  // Everything printed passes the same redaction as the reports, once the tokens are known.
  let redactor = new Redactor([]);
  const notice = (line: string): void => void process.stderr.write(`${redactor.redact(line)}\n`);
  const progress = values.quiet === true ? () => {} : notice;
  if (values.config !== undefined) {
    raw = loadProfileFile(values.config);
    if (values['base-url'] !== undefined) raw.base_url = values['base-url'];
    target = resolveProfile(values.config, raw);
  } else if (values['base-url'] !== undefined) {
    target = resolveProfile('--base-url', profileFromEnvironment(values['base-url']));
  }
  // Headers, TLS files and proxy are settled before any reference starts: a mistake is one line.
  // The embedded reference always listens on plain http.
  const { transport, notices: transportNotices } = resolveTransport({
    baseUrl: target?.profile.baseUrl ?? 'http://127.0.0.1/v1',
    ...(values.config === undefined || raw === undefined ? {} : { profile: { file: values.config, headers: raw.headers, tls: raw.tls } }),
    flags: transportFlags(values),
    env: process.env,
    cwd: process.cwd(),
  });
  // From here to the end a signal stops the run, never the process: faults off, reports written.
  const interrupts = new Interrupts(notice).listen();
  try {
    if (target === undefined) {
      reference = await startReference(switches);
      target = embeddedTarget(reference);
      progress(`embedded reference at ${reference.baseUrl}${switchesText(switches)}`);
    }
    redactor = new Redactor([...Object.values(target.tokens), ...transportSecrets(transport)]);
    for (const n of [...target.notices, ...transportNotices]) progress(`note: ${n}`);
    progress(`certifying ${target.profile.baseUrl} with ${files.length} suites, seed ${seed}`);
    const implementation = {
      ...(target.profile.implementation ?? {}),
      ...(switchesText(switches) === '' ? {} : { label: `asi-conformance reference${switchesText(switches)}` }),
      ...(values.label === undefined ? {} : { label: values.label }),
      ...(values['impl-version'] === undefined ? {} : { version: values['impl-version'] }),
    };
    const { report, dir, files: written, stoppedBy, bundle: certified } = await certify({
      target,
      embedded: reference !== undefined,
      files,
      selection: { suites: values.suite ?? [], only, skip },
      ...(expectations === undefined ? {} : { expectations }),
      ...(baseline === undefined ? {} : { baseline }),
      ...(Object.keys(implementation).length === 0 ? {} : { implementation }),
      outDir,
      formats,
      seed,
      failOn,
      failOnCoverage,
      replayPaths: parseReplay(values.replay ?? []),
      ...(timeoutS === undefined ? {} : { httpLimits: limitsForTimeout(timeoutS) }),
      transport,
      progress,
      notice,
      interrupts,
      argv: ['run', ...args],
      ...(bundle === undefined ? {} : { bundle }),
    });
    const near = relative(process.cwd(), dir);
    const shown = near === '' || near.startsWith('..') || isAbsolute(near) ? dir : near;
    const reportsLine = `reports: ${shown}/ (${written.map((f) => basename(f)).join(', ')})`;
    const bundleText = certified === undefined ? '' : `\n${bundleLine(certified)}`;
    if (stoppedBy !== undefined) {
      // The preflight ended the run: its one line (and exit code) as ever, once the reports say where they are.
      process.stdout.write(`${redactor.redact(reportsLine)}${bundleText}\n`);
      throw stoppedBy;
    }
    process.stdout.write(`${redactor.redact(consoleSummary(report, reportsLine))}${bundleText}\n`);
    return report.exitCode;
  } catch (err) {
    // The CLI prints an unexpected error's message; it must not carry a token either.
    if (err instanceof HarnessError || !(err instanceof Error)) throw err;
    throw new Error(redactor.redact(err.message));
  } finally {
    await reference?.close();
    interrupts.close();
  }
}
