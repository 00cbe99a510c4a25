import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_NAME } from '../certification/bundle-layout.ts';
import { UsageError } from '../errors.ts';

/** Folders deep a search goes below each folder given (an artifact download nests a few). */
const MAX_DEPTH = 8;

/** More columns than this make no page to read: the folders given are likely not the ones meant. */
const MAX_BUNDLES = 256;

function isBundleFolder(dir: string): boolean {
  return existsSync(join(dir, MANIFEST_NAME));
}

/**
 * The certification bundles under the paths `matrix merge` is given, in a stable order: every
 * `*.tar.gz` file (a file that turns out to be no bundle is still a column, saying so: nothing
 * given is dropped in silence) and every folder that holds a manifest.json (`run --bundle-dir`, or
 * an archive unpacked), which is not searched further. A path given by name is taken as it is.
 * Links are not followed; one bundle reached twice is listed once.
 */
export function findBundles(roots: readonly string[]): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const add = (path: string): void => {
    const real = realpathSync(path);
    if (seen.has(real)) return;
    seen.add(real);
    found.push(path);
  };
  const visit = (dir: string, depth: number): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (isBundleFolder(path)) add(path);
        else if (depth < MAX_DEPTH) visit(path, depth + 1);
      } else if (entry.isFile() && entry.name.endsWith('.tar.gz')) add(path);
      if (found.length > MAX_BUNDLES) throw new UsageError(`matrix merge: more than ${MAX_BUNDLES} bundles under ${roots.join(', ')}; give the folders that hold them`);
    }
  };
  for (const root of roots) {
    const stat = statSync(root, { throwIfNoEntry: false });
    if (stat === undefined) throw new UsageError(`matrix merge: ${root}: no such file or folder`);
    if (stat.isFile() || isBundleFolder(root)) add(root);
    else if (stat.isDirectory()) visit(root, 0);
    else throw new UsageError(`matrix merge: ${root}: neither a file nor a folder`);
  }
  if (found.length === 0) throw new UsageError(`matrix merge: no bundle under ${roots.join(', ')} (a *.tar.gz file, or a folder with a ${MANIFEST_NAME}, as run writes them)`);
  return found;
}
