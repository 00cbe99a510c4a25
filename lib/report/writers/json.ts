import type { Report } from '../report-model.ts';
import { jsonText } from '../../model/json-text.ts';

/** report.json: the Report as it is (invisible format characters escaped), described by lib/report/report.schema.json. */
export function reportJson(report: Report): string {
  return `${jsonText(report, 2)}\n`;
}
