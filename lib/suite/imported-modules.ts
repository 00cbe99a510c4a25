import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const RELATIVE_IMPORT = /^\s*(?:import|export)\b[^'"]*?from\s*'(\.{1,2}\/[^']+\.ts)'/gm;

/**
 * The project's modules that `files` import, directly or not (their relative `.ts` imports; type
 * imports too, which cost nothing to ask for), the files themselves and files not there left out.
 */
export function importedModules(files: readonly string[]): string[] {
  const seen = new Set<string>(files);
  const queue = [...files];
  const found: string[] = [];
  while (queue.length > 0) {
    const file = queue.pop()!;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      // Not there: its importer fails where it is run, with vitest's own message.
      continue;
    }
    if (!files.includes(file)) found.push(file);
    for (const match of text.matchAll(RELATIVE_IMPORT)) {
      const target = resolve(dirname(file), match[1]!);
      if (seen.has(target)) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  return found;
}

