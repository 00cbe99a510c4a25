import { dirname, isAbsolute, join } from 'node:path';
import { loadSigningKey } from '../certification/signing-key.ts';
import { HarnessError, TargetsError, UsageError } from '../errors.ts';
import { loadProfileFile } from '../profile/load-profile.ts';
import { TOKEN_ROLES, type ProfileFile } from '../profile/profile-file.ts';
import { resolveProfile } from '../profile/resolve-profile.ts';
import { loadExpectations } from '../report/expectations.ts';
import { validateSwitches } from '../reference/server.ts';
import { requirementIds } from '../catalogue/selection.ts';
import { selectSuiteFiles } from '../runner/suite-files.ts';
import type { RunChoices, TargetEntry, TargetsFile } from './targets-file.ts';

/** One target as it will run: its own `asi-conformance run` process, its own folder. */
export interface PlannedTarget {
  name: string;
  kind: 'profile' | 'base_url' | 'reference';
  /** What it certifies, in words: the profile file, the base_url, or the reference and its switches. */
  what: string;
  /** Arguments of `asi-conformance run`, without --out. */
  args: string[];
}

export interface MatrixPlan {
  file: string;
  targets: PlannedTarget[];
  concurrency: number;
  /** Parent folder of the matrix folder. */
  outParent: string;
  /** The private key every run signs its bundle with (sign_key), as the runs are given it. */
  signKey?: string;
}

export interface PlanOptions {
  env: NodeJS.ProcessEnv;
  /** --out, --concurrency and --seed of the command line: they win over the file's. */
  out?: string;
  concurrency?: number;
  seed?: number;
}

export const DEFAULT_CONCURRENCY = 2;

/** The conventional variables `run --base-url` reads its tokens from. */
const BASE_URL_TOKENS: ProfileFile['tokens'] = {
  primary: { env: 'ASI_TOKEN' },
  secondary: { env: 'ASI_TOKEN_2' },
  other_workspace: { env: 'ASI_TOKEN_WS2' },
  revoked: { env: 'ASI_TOKEN_REVOKED' },
  expired: { env: 'ASI_TOKEN_EXPIRED' },
};

/** A path the file names, as the child process (same working folder) is given it. */
function besideFile(file: string, path: string): string {
  return isAbsolute(path) ? path : join(dirname(file), path);
}

/** Runs `check`; an error it throws becomes one TargetsError at `key`, its own words kept. */
function at<T>(file: string, key: string, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (!(err instanceof HarnessError)) throw err;
    throw new TargetsError(file, key, err.message.replace(/^run: /, ''));
  }
}

/** Where a token goes, to find one variable sent to two servers. */
interface TokenUse {
  index: number;
  name: string;
  origin: string;
  variable: string;
  role: string;
}

function tokenUses(index: number, name: string, raw: ProfileFile): TokenUse[] {
  const origin = new URL(raw.base_url).origin;
  return TOKEN_ROLES.flatMap((role) => {
    const source = raw.tokens[role];
    return source !== undefined && 'env' in source ? [{ index, name, origin, variable: source.env, role }] : [];
  });
}

/**
 * A token variable read by two targets on different servers would send one vendor's token to
 * another: refused before anything runs.
 */
function checkTokenVariables(file: string, uses: readonly TokenUse[]): void {
  for (const [i, a] of uses.entries()) {
    const b = uses.slice(i + 1).find((u) => u.variable === a.variable && u.origin !== a.origin);
    if (b === undefined) continue;
    throw new TargetsError(
      file,
      `targets[${b.index}]`,
      `reads tokens.${b.role} from ${b.variable}, as targets[${a.index}] (${a.name}) does, but on another server (${b.origin}, not ${a.origin}): that token would go to both; give each target a profile whose tokens name its own variables (tokens.${b.role}: { env: ${b.name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_TOKEN })`,
    );
  }
}

function runChoiceArgs(file: string, prefix: string, choices: RunChoices, own: RunChoices): string[] {
  const args: string[] = [];
  const keyOf = (k: keyof RunChoices): string => (own[k] !== undefined ? `${prefix}.${k}` : k);
  const suites = choices.suite ?? [];
  at(file, keyOf('suite'), () => selectSuiteFiles(suites));
  for (const s of suites) args.push('--suite', s);
  for (const flag of ['only', 'skip'] as const) {
    const ids = at(file, keyOf(flag), () => requirementIds(flag, choices[flag] ?? []));
    for (const id of ids) args.push(`--${flag}`, id);
  }
  if (choices.fail_on !== undefined) args.push('--fail-on', choices.fail_on);
  if (choices.timeout !== undefined) args.push('--timeout', String(choices.timeout));
  return args;
}

function targetArgs(file: string, index: number, t: TargetEntry, env: NodeJS.ProcessEnv, uses: TokenUse[]): PlannedTarget {
  const key = `targets[${index}]`;
  let kind: PlannedTarget['kind'];
  let what: string;
  const args = ['run'];
  if (t.profile !== undefined) {
    kind = 'profile';
    const path = besideFile(file, t.profile);
    const raw = at(file, `${key}.profile`, () => loadProfileFile(path));
    at(file, `${key}.profile`, () => resolveProfile(path, raw, env));
    uses.push(...tokenUses(index, t.name, raw));
    what = `${raw.base_url} (${path})`;
    args.push('--config', path);
  } else if (t.base_url !== undefined) {
    kind = 'base_url';
    const raw: ProfileFile = { base_url: t.base_url, tokens: BASE_URL_TOKENS };
    at(file, `${key}.base_url`, () => resolveProfile(`${key}.base_url`, raw, env));
    uses.push(...tokenUses(index, t.name, raw));
    what = t.base_url;
    args.push('--base-url', t.base_url);
  } else {
    kind = 'reference';
    // The embedded reference is not an implementation of anyone's: its column carries no other name.
    for (const k of ['label', 'version'] as const) {
      if (t[k] !== undefined) throw new TargetsError(file, `${key}.${k}`, `names the implementation under test, but the target is the embedded reference (reference:); give it a profile or base_url, or remove ${k}`);
    }
    const defects = t.reference?.defects ?? [];
    const variants = t.reference?.variants ?? [];
    at(file, `${key}.reference`, () => {
      try {
        validateSwitches({ defects, variants });
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
    });
    const switches = [...defects.map((d) => `defect ${d}`), ...variants.map((v) => `variant ${v}`)];
    what = `the embedded reference${switches.length === 0 ? '' : ` with ${switches.join(', ')}`}`;
    for (const d of defects) args.push('--defect', d);
    for (const v of variants) args.push('--variant', v);
  }
  if (t.label !== undefined) args.push('--label', t.label);
  if (t.version !== undefined) args.push('--impl-version', t.version);
  if (t.expect !== undefined) {
    const path = besideFile(file, t.expect);
    at(file, `${key}.expect`, () => loadExpectations(path));
    args.push('--expect', path);
  }
  return { name: t.name, kind, what, args };
}

/**
 * The runs a matrix file asks for, every one checked before the first starts: a profile that
 * does not load, a token variable that is not set, a suite or id that does not exist, a waiver
 * file or signing key that cannot be read is one line naming the target's key (exit 2), not a
 * column that failed after minutes.
 */
export function planMatrix(file: string, parsed: TargetsFile, options: PlanOptions): MatrixPlan {
  const uses: TokenUse[] = [];
  const top: RunChoices = { suite: parsed.suite, only: parsed.only, skip: parsed.skip, fail_on: parsed.fail_on, timeout: parsed.timeout };
  const signKey = parsed.sign_key === undefined ? undefined : besideFile(file, parsed.sign_key);
  if (signKey !== undefined) at(file, 'sign_key', () => loadSigningKey(signKey, options.env));
  const targets = parsed.targets.map((t, i) => {
    const planned = targetArgs(file, i, t, options.env, uses);
    const own: RunChoices = { suite: t.suite, only: t.only, skip: t.skip, fail_on: t.fail_on, timeout: t.timeout };
    const choices = Object.fromEntries(Object.keys(top).map((k) => [k, own[k as keyof RunChoices] ?? top[k as keyof RunChoices]])) as RunChoices;
    planned.args.push(...runChoiceArgs(file, `targets[${i}]`, choices, own));
    const seed = options.seed ?? t.seed ?? parsed.seed;
    if (seed !== undefined) planned.args.push('--seed', String(seed));
    if (signKey !== undefined) planned.args.push('--sign-key', signKey);
    planned.args.push('-q');
    return planned;
  });
  checkTokenVariables(file, uses);
  return {
    file,
    targets,
    concurrency: options.concurrency ?? parsed.concurrency ?? DEFAULT_CONCURRENCY,
    outParent: options.out ?? (parsed.out === undefined ? 'reports' : besideFile(file, parsed.out)),
    ...(signKey === undefined ? {} : { signKey }),
  };
}
