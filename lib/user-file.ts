import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';

/**
 * Files the user names on the command line (a profile, expectations, a baseline report): read
 * whole, and every way that can go wrong said in one clause for the caller's error, which names
 * the file and picks the exit code.
 */
export function readUserFile(file: string, fail: (message: string) => Error): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw fail(code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? String(err)})`);
  }
}

/** A user's YAML file as data; a syntax error or a duplicate key is one clause with its line and column. */
export function readUserYaml(file: string, fail: (message: string) => Error): unknown {
  const doc = parseDocument(readUserFile(file, fail), { prettyErrors: true, uniqueKeys: true });
  const yamlError = doc.errors[0];
  if (yamlError !== undefined) {
    const at = yamlError.linePos?.[0];
    throw fail(`is not valid YAML${at === undefined ? '' : ` at line ${at.line}, column ${at.col}`}: ${yamlError.message.split('\n')[0]}`);
  }
  try {
    return doc.toJS() as unknown;
  } catch {
    // yaml names the alias in its message, and an alias may be a pasted token: not printed back.
    throw fail('is not valid YAML: an alias (*name) refers to no anchor (&name) set before it');
  }
}
