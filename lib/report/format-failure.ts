import { requirementById } from '../catalogue/index.ts';
import { curlOf } from '../http/curl.ts';
import type { Exchange } from '../model/exchange.ts';
import type { Finding } from '../model/finding.ts';
import { consoleText } from './console-text.ts';

const BODY_LINES = 12;

/** Target text is escaped (consoleText) and every line starts with the harness's own words or mark. */
function responseExcerpt(exchange: Exchange): string[] {
  if (exchange.error !== undefined && exchange.response === undefined) return [`  Response: none (${consoleText(`${exchange.error.code}: ${exchange.error.message}`)})`];
  const res = exchange.response;
  if (res === undefined) return [];
  const head = Object.entries(res.headers)
    .filter(([k]) => k.startsWith('x-') || k === 'content-type' || k === 'retry-after')
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
  const body = res.body.slice(0, 600).split('\n').slice(0, BODY_LINES);
  return [`  Response: ${res.status} ${consoleText(head)}`, ...(res.body === '' ? [] : body.map((line) => `    | ${consoleText(line)}`))];
}

/**
 * A violated requirement as the terminal shows it, h2spec style: what, the spec sentence, what
 * was expected and what came, the exchange that shows it, and how to replay it. `cli` is how the
 * replay line runs the harness: the terminal's caller gives the command that runs where the user is
 * (lib/invocation.ts); junit.xml keeps the bare name, because it goes into the bundle, whose reports
 * must read the same wherever the harness that rendered them was installed.
 */
export function formatFailure(finding: Finding, cli = 'asi-conformance'): string {
  const req = requirementById(finding.requirement);
  const lines = [`× ${consoleText(finding.requirement)}${req === undefined ? '' : ` ${req.statement}`}`];
  if (req !== undefined) lines.push(`  -> §${req.section}${req.quote === undefined ? '' : `: ${req.quote}`}`);
  if (finding.expected !== undefined) lines.push(`  Expected: ${consoleText(finding.expected)}`);
  if (finding.actual !== undefined) lines.push(`  Actual:   ${consoleText(finding.actual)}`);
  if (finding.note !== undefined) lines.push(`  Note:     ${consoleText(finding.note)}`);
  const p = finding.property;
  if (p !== undefined) {
    lines.push(`  Property: fast-check seed ${p.seed}${p.path === undefined ? '' : `, path ${consoleText(p.path)}`}, ${p.numRuns} runs, ${p.requests} requests`);
    if (p.counterexample !== undefined) lines.push(`  Counterexample: ${consoleText(p.counterexample)}`);
    if (p.replay !== undefined) lines.push(`  Replay:   ${cli} run ... ${consoleText(p.replay)}`);
  }
  const shown = finding.exchanges[finding.exchanges.length - 1];
  if (shown !== undefined) {
    lines.push(`  Request:  ${consoleText(`${shown.request.method} ${shown.request.url}`)}`);
    lines.push(...responseExcerpt(shown));
    // The curl line is quoted for a shell, not for a terminal: a control character in it shows escaped.
    lines.push(`  Reproduce: ${consoleText(curlOf(shown))}`);
  }
  return lines.join('\n');
}
