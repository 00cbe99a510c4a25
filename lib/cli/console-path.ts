import { isAbsolute, relative } from 'node:path';

/** A path as the console shows it: relative to the working folder when inside it, else whole. */
export function consolePath(path: string, cwd = process.cwd()): string {
  const near = relative(cwd, path);
  return near === '' || near.startsWith('..') || isAbsolute(near) ? path : near;
}
