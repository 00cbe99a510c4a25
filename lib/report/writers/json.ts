import type { Report } from '../report-model.ts';

/** report.json: the Report as it is, described by lib/report/report.schema.json. */
export function reportJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
