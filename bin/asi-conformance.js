#!/usr/bin/env node
// Entry point: the CLI is compiled to dist/ by `npm run build` (run by `npm start`, `npm test` and `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  // A clone builds with `npm run build`; an install from git builds in its `prepare` script,
  // which a package manager that holds back install scripts may have skipped.
  process.stderr.write(
    'asi-conformance: the build is missing (dist/cli/main.js): in a clone run `npm run build`; ' +
      'installed from a git URL, let its prepare script run (npm: `npm install-scripts approve asi-conformance`) and install again\n',
  );
  process.exit(2);
}
// A reader that stops early (`asi-conformance list | head`) closes the pipe: that ends the output, not the tool.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
const { main: run } = await import(main.href);
process.exitCode = await run(process.argv.slice(2));
