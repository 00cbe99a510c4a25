import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.ts';

/**
 * The digest of the harness's own installed files: what `npm pack` puts in the package (the
 * `files` of package.json, less its `!` patterns, and package.json, README and LICENSE, which npm
 * always adds). Two installs of one release have the same digest; a harness edited in place, or
 * built from other sources, has another. A self-test holds the list to what `npm pack` packs.
 */

/** Files npm always adds, if present. */
const ALWAYS = ['package.json', 'README.md', 'LICENSE'];

/** Names npm never packs from a folder of `files`. */
function npmIgnores(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules' || name.endsWith('.orig') || name === 'npm-debug.log' || name === 'package-lock.json';
}

/** A `files` glob (`dist/**\/*.map`) as a test of a path relative to the package root. */
function globTest(glob: string): (path: string) => boolean {
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      // `**/` is any number of folders, none included.
      const slash = glob[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  const re = new RegExp(`^${source}$`);
  return (path) => re.test(path);
}

function walk(root: string, relative: string, out: string[]): void {
  const full = join(root, relative);
  const stat = statSync(full, { throwIfNoEntry: false });
  if (stat === undefined) return;
  if (stat.isFile()) {
    out.push(relative);
    return;
  }
  if (!stat.isDirectory()) return;
  for (const name of readdirSync(full)) {
    if (npmIgnores(name)) continue;
    walk(root, `${relative}/${name}`, out);
  }
}

/** The package's files, relative to its root with `/`, sorted (code unit order). */
export function packageFiles(root = PACKAGE_ROOT): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files?: string[] };
  const patterns = pkg.files ?? [];
  const excluded = patterns.filter((p) => p.startsWith('!')).map((p) => globTest(p.slice(1).replace(/^\.\//, '')));
  const out: string[] = [];
  for (const entry of [...ALWAYS, ...patterns.filter((p) => !p.startsWith('!'))]) walk(root, entry.replace(/^\.\//, '').replace(/\/$/, ''), out);
  return [...new Set(out)].filter((p) => !excluded.some((test) => test(p))).sort();
}

let cached: { root: string; digest: string } | undefined;

/**
 * SHA-256, hex, over one line per package file, sorted by path: the file's SHA-256, two spaces,
 * its path (the lines `sha256sum` prints). Computed once per process.
 */
export function packageDigest(root = PACKAGE_ROOT): string {
  if (cached?.root === root) return cached.digest;
  const all = createHash('sha256');
  for (const path of packageFiles(root)) {
    const file = createHash('sha256').update(readFileSync(join(root, path))).digest('hex');
    all.update(`${file}  ${path}\n`);
  }
  cached = { root, digest: all.digest('hex') };
  return cached.digest;
}
