/** The report formats a run writes, and their file names: what the CLI's help names, without loading a writer. */
export type ReportFormat = 'html' | 'json' | 'junit' | 'md' | 'har';

/** Every format, in the order files are written. */
export const REPORT_FORMATS: readonly ReportFormat[] = ['json', 'junit', 'md', 'html', 'har'];

export const REPORT_FILE_NAMES: Record<ReportFormat, string> = {
  json: 'report.json',
  junit: 'junit.xml',
  md: 'summary.md',
  html: 'report.html',
  har: 'transcript.har',
};

/** Formats whose text is HTML or XML: what is put into them afterwards must be escaped too. */
export function isMarkup(format: ReportFormat): boolean {
  return format === 'html' || format === 'junit';
}
