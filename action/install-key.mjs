// The key of the GitHub Action's install (action.yml): what its node_modules and dist are made
// from, so that an unchanged action restores them from the cache (or finds them where an earlier
// job left them) instead of installing and building again. It prints for $GITHUB_OUTPUT `key=...`,
// `dir=...` (the action's folder, where the cached folders are: the cache steps take it from here
// rather than evaluate github.action_path in the inputs of an action nested in this one), and
// `current=true` when that folder already holds the install of the key (action/install.sh writes
// the stamp last), so that nothing needs restoring either.
//
// Made from: the lockfile and package.json (node_modules); the build scripts, the TypeScript
// configuration, every file of lib/ and suites/ and the profile schema (dist, which `npm run build`
// makes from these alone, and whose stamp covers them: bin/build.mjs); and the platform, CPU and
// Node.js major version (npm installs native parts, such as rollup's, for these). Plain Node.js: nothing is installed when it runs.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const root = join(import.meta.dirname, '..');
const SOURCES = ['package.json', 'package-lock.json', 'bin/build.mjs', 'bin/compile-lib.mjs', 'tsconfig.json', 'tsconfig.build.json', 'lib', 'suites', 'config/profile.schema.json'];

/** Every file below a path (the path itself when it is a file), as paths relative to the root with `/`. */
function filesOf(path) {
  if (statSync(join(root, path)).isFile()) return [path];
  const entries = readdirSync(join(root, path), { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'));
}

const files = SOURCES.flatMap(filesOf).sort();
const hash = createHash('sha256');
// Each file's name and length before its bytes: moving bytes from one file to another changes the key.
for (const file of files) {
  const data = readFileSync(join(root, file));
  hash.update(`${file}\0${data.length}\0`).update(data);
}
const node = process.versions.node.split('.')[0];
const key = `asi-conformance-${process.platform}-${process.arch}-node${node}-${hash.digest('hex')}`;
const stamp = join(root, 'node_modules', '.asi-conformance-install-key');
const current = existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === key && existsSync(join(root, 'dist', 'cli', 'main.js'));
process.stdout.write(`key=${key}\ndir=${root}\ncurrent=${current}\n`);
