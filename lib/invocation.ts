import { readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { quote } from './http/curl.ts';
import { PACKAGE_ROOT } from './package-root.ts';

/**
 * How the user runs this copy of the harness from where they are, for every command the harness
 * prints for them to type (`check it offline: … verify …`, keygen's next step, badge's hint, the
 * run command serve suggests). A clone has no `asi-conformance` on PATH (exit 127), so the
 * command depends on where the package lies:
 *
 * - its bin is on the user's PATH (a global install, `npm link`, the container): the bare name;
 * - the working folder is inside the clone, or inside the project whose node_modules holds the
 *   package: `npx asi-conformance` (npm exec runs the local project's bin, the clone's own included,
 *   without asking a registry);
 * - run by npx from its cache: `npx asi-conformance@<version>`, the same version again;
 * - otherwise: `node <path>/bin/asi-conformance.js`, which runs from anywhere.
 *
 * Found from paths and the environment only: no npm is spawned for it.
 */

export const BIN_NAME = 'asi-conformance';

/** Where the harness runs: what `commandPrefix` looks at, given for tests. */
export interface Place {
  /** The package's root folder. */
  packageRoot: string;
  /** The package's version (for the npx cache form). */
  version: string;
  cwd: string;
  /** PATH of the user's shell. */
  path: string;
  /** npm's global prefix when known (`npm_config_prefix`, else the prefix of the running node). */
  globalPrefix: string | undefined;
  platform: NodeJS.Platform;
  /** Where a command name on PATH leads (symbolic links followed), or undefined when there is none. */
  resolve(file: string): string | undefined;
}

function resolveFile(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/** A word as a POSIX shell reads it: quoted only when it needs to be. */
export function shellWord(s: string): string {
  return /^[\w./:@=+,-]+$/.test(s) ? s : quote(s);
}

function inside(path: string, folder: string): boolean {
  const near = relative(folder, path);
  return near === '' || (!near.startsWith('..') && !isAbsolute(near));
}

/** npm's global node_modules under a prefix: `<prefix>/lib/node_modules`, on Windows `<prefix>\node_modules`. */
function globalModules(prefix: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? join(prefix, 'node_modules') : join(prefix, 'lib', 'node_modules');
}

/**
 * The bare name runs when a PATH folder holds a link to this package's bin. Folders npm adds
 * while it runs a script or npx (`node_modules/.bin`) are not the user's shell's PATH.
 */
function onPath(place: Place, bin: string): boolean {
  const want = place.resolve(bin);
  if (want === undefined) return false;
  return place.path
    .split(delimiter)
    .filter((dir) => dir !== '' && !dir.endsWith(join('node_modules', '.bin')))
    .some((dir) => place.resolve(join(dir, BIN_NAME)) === want);
}

/** The command that runs this harness where the user is, without its arguments (`npx asi-conformance`). */
export function commandPrefixFor(place: Place): string {
  const root = place.packageRoot.replace(/[\\/]+$/, '');
  const bin = join(root, 'bin', `${BIN_NAME}.js`);
  if (place.globalPrefix !== undefined && inside(root, globalModules(place.globalPrefix, place.platform))) return BIN_NAME;
  if (onPath(place, bin)) return BIN_NAME;
  const modules = root.lastIndexOf(`${sep}node_modules${sep}`);
  if (modules !== -1 && root.includes(`${sep}_npx${sep}`)) return `npx ${BIN_NAME}@${place.version}`;
  const project = modules === -1 ? root : root.slice(0, modules);
  if (inside(place.cwd, project)) return `npx ${BIN_NAME}`;
  const near = relative(place.cwd, bin);
  return `node ${shellWord(near.startsWith('..') || isAbsolute(near) ? bin : near)}`;
}

function globalPrefix(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  // npm tells the scripts and npx it runs; otherwise npm installs global packages under the prefix
  // of the node that runs it: <prefix>/bin/node, on Windows <prefix>\node.exe.
  const told = env['npm_config_global_prefix'] ?? env['npm_config_prefix'];
  if (told !== undefined && told !== '') return told;
  return platform === 'win32' ? dirname(process.execPath) : dirname(dirname(process.execPath));
}

let version: string | undefined;

function packageVersion(): string {
  if (version === undefined) {
    try {
      version = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
    } catch {
      version = '0.0.0';
    }
  }
  return version;
}

/** The place this process runs in. */
export function currentPlace(cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): Place {
  return {
    packageRoot: PACKAGE_ROOT,
    version: packageVersion(),
    cwd,
    path: env['PATH'] ?? '',
    globalPrefix: globalPrefix(env, process.platform),
    platform: process.platform,
    resolve: resolveFile,
  };
}

/** The command that runs this harness from `cwd` (`npx asi-conformance`, `asi-conformance`, `node …/bin/asi-conformance.js`). */
export function commandPrefix(cwd = process.cwd()): string {
  return commandPrefixFor(currentPlace(cwd));
}
