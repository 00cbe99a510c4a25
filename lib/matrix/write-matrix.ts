import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hideLocalPaths } from '../report/local-paths.ts';
import { matrixHtml } from './matrix-html.ts';
import type { Matrix } from './matrix-model.ts';
import { jsonText } from '../model/json-text.ts';

export const MATRIX_JSON = 'matrix.json';
export const MATRIX_HTML = 'matrix.html';

/**
 * Writes matrix.json and matrix.html into the matrix folder. Like the reports, the page travels:
 * local folders in it (a bundle's path, a reason quoting one) read as their stand-ins.
 */
export function writeMatrix(matrix: Matrix, dir: string): { matrix: Matrix; files: string[] } {
  const shown = JSON.parse(hideLocalPaths(JSON.stringify(matrix))) as Matrix;
  const json = join(dir, MATRIX_JSON);
  const html = join(dir, MATRIX_HTML);
  writeFileSync(json, `${jsonText(shown, 2)}\n`);
  writeFileSync(html, matrixHtml(shown));
  return { matrix: shown, files: [html, json] };
}
