#!/usr/bin/env node
// Entry point: the CLI is compiled to dist/ by `npm run build` (run by `npm start`, `npm test` and `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  process.stderr.write('asi-conformance: the build is missing (dist/cli/main.js); run `npm run build` first\n');
  process.exit(2);
}
const { main: run } = await import(main.href);
process.exitCode = await run(process.argv.slice(2));
