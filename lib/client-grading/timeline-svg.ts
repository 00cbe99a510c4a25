import { pathOf, poolOf, type TracedRequest } from '../checks/client-trace.ts';
import { escapeHtml as h } from '../report/writers/text.ts';

/** A request a finding judged, to be ringed on the picture. */
export interface JudgedMark {
  at: number;
  requirement: string;
  verdict: string;
}

const WIDTH = 900;
const LEFT = 64;
const RIGHT = 16;
const TOP = 10;
const LANE = 44;
const AXIS = 34;
const POOLS = ['read', 'write'] as const;

/** A span in which the script refused a pool: from a 429 to the end of its Retry-After. */
interface RefusedSpan {
  pool: 'read' | 'write';
  fromS: number;
  toS: number;
  retryAfter: string;
  /** 429s the span joins: a client that keeps sending while refused makes overlapping spans, drawn as one. */
  refusals: number;
}

function refusedSpans(trace: readonly TracedRequest[], t0: number): RefusedSpan[] {
  const each = trace.flatMap((r): RefusedSpan[] => {
    const retryAfter = r.answer.headers['retry-after'];
    const seconds = Number(retryAfter);
    if (r.answer.status !== 429 || retryAfter === undefined || !Number.isFinite(seconds)) return [];
    const fromS = (r.receivedAtMs - t0) / 1000;
    return [{ pool: poolOf(r.method), fromS, toS: fromS + seconds, retryAfter, refusals: 1 }];
  });
  const merged: RefusedSpan[] = [];
  for (const s of each) {
    const last = merged.findLast((m) => m.pool === s.pool);
    if (last !== undefined && s.fromS <= last.toS) {
      last.toS = Math.max(last.toS, s.toS);
      last.refusals += 1;
      last.retryAfter = s.retryAfter;
    } else merged.push({ ...s });
  }
  return merged;
}

/** A tick every 1, 2, 5, 10… seconds, about eight across. */
function tickStep(spanS: number): number {
  for (const step of [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300]) if (spanS / step <= 10) return step;
  return 600;
}

/** The mark of an answer: its shape says what colour also says, so the picture reads without colour. */
function mark(status: number, x: number, y: number): string {
  if (status === 429) return `<path class="m-429" d="M${x} ${y - 7}L${x + 7} ${y + 6}L${x - 7} ${y + 6}Z"/>`;
  if (status >= 400 && status < 500) return `<rect class="m-4xx" x="${x - 5.5}" y="${y - 5.5}" width="11" height="11"/>`;
  if (status >= 500) return `<rect class="m-5xx" x="${x - 5.5}" y="${y - 5.5}" width="11" height="11" transform="rotate(45 ${x} ${y})"/>`;
  return `<circle class="m-ok" cx="${x}" cy="${y}" r="5"/>`;
}

const n = (v: number): string => String(Math.round(v * 10) / 10);

/**
 * One scenario's requests over time (x: seconds from its first request), a lane for each rate
 * pool, with the spans the script refused that pool shaded up to the end of their Retry-After;
 * each answer a mark (circle 2xx/3xx, triangle 429, square other 4xx, diamond 5xx), the requests
 * a finding judged ringed. Every mark carries its request line as a <title>.
 */
export function timelineSvg(scenario: string, trace: readonly TracedRequest[], judged: readonly JudgedMark[]): string {
  const titleId = `tl-${scenario}-title`;
  const descId = `tl-${scenario}-desc`;
  const t0 = trace[0]?.receivedAtMs ?? 0;
  const spans = refusedSpans(trace, t0);
  const endS = Math.max(1, ...trace.map((r) => (r.receivedAtMs - t0) / 1000), ...spans.map((s) => s.toS));
  const plot = WIDTH - LEFT - RIGHT;
  const x = (s: number): number => LEFT + (s / endS) * plot;
  const laneY = (pool: 'read' | 'write'): number => TOP + LANE * POOLS.indexOf(pool) + LANE / 2;
  const height = TOP + LANE * POOLS.length + AXIS;
  const parts: string[] = [];
  for (const pool of POOLS) {
    const y = TOP + LANE * POOLS.indexOf(pool);
    parts.push(`<rect class="lane" x="${LEFT}" y="${y}" width="${plot}" height="${LANE}"/><text class="lab" x="${LEFT - 8}" y="${y + LANE / 2 + 4}" text-anchor="end">${pool}</text>`);
  }
  for (const s of spans) {
    const y = TOP + LANE * POOLS.indexOf(s.pool);
    parts.push(`<rect class="refused" x="${n(x(s.fromS))}" y="${y + 2}" width="${n(Math.max(1, x(s.toS) - x(s.fromS)))}" height="${LANE - 4}"><title>${s.pool} pool refused at +${s.fromS.toFixed(2)} s${s.refusals > 1 ? ` (${s.refusals} 429s, the last with` : ' (with'} Retry-After ${h(s.retryAfter)} s): nothing to this pool before +${s.toS.toFixed(2)} s</title></rect>`);
  }
  const step = tickStep(endS);
  const axisY = TOP + LANE * POOLS.length;
  parts.push(`<line class="axis" x1="${LEFT}" y1="${axisY}" x2="${LEFT + plot}" y2="${axisY}"/>`);
  for (let s = 0; s <= endS + 1e-9; s += step) {
    parts.push(`<line class="axis" x1="${n(x(s))}" y1="${axisY}" x2="${n(x(s))}" y2="${axisY + 4}"/><text class="tick" x="${n(x(s))}" y="${axisY + 16}" text-anchor="middle">${Number(s.toFixed(1))} s</text>`);
  }
  trace.forEach((r, i) => {
    const t = (r.receivedAtMs - t0) / 1000;
    const line = `#${i + 1} +${t.toFixed(2)} s ${r.method} ${pathOf(r.target)} → ${r.answer.status}${r.answer.headers['retry-after'] === undefined ? '' : ` (Retry-After: ${r.answer.headers['retry-after']})`}`;
    const marks = judged.filter((j) => j.at === i);
    const ring = marks.length === 0 ? '' : `<circle class="judged" cx="${n(x(t))}" cy="${laneY(poolOf(r.method))}" r="11"/>`;
    const why = marks.map((m) => `; judged by ${m.requirement}: ${m.verdict}`).join('');
    parts.push(`<g>${ring}${mark(r.answer.status, Number(n(x(t))), laneY(poolOf(r.method)))}<title>${h(line + why)}</title></g>`);
  });
  const refusals = spans.reduce((k, s) => k + s.refusals, 0);
  const refusedText = spans.length === 0 ? 'no pool was refused' : `${refusals} 429(s) shaded up to the end of their Retry-After`;
  const desc = `${trace.length} request(s) over ${endS.toFixed(1)} s; ${refusedText}; ${judged.length === 0 ? 'no request failed a requirement' : `${judged.length} judged request(s) ringed`}.`;
  return [
    `<svg class="timeline" role="img" aria-labelledby="${h(titleId)} ${h(descId)}" viewBox="0 0 ${WIDTH} ${height}" width="100%" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="${h(titleId)}">Scenario ${h(scenario)}: requests over time by rate pool</title>`,
    `<desc id="${h(descId)}">${h(desc)}</desc>`,
    ...parts,
    '</svg>',
  ].join('');
}

/** The picture's style, for the report's <style>. */
export const TIMELINE_STYLE = `
svg.timeline { display: block; max-width: 900px; font: 11px system-ui, sans-serif; }
svg.timeline .lane { fill: var(--soft); stroke: var(--line); }
svg.timeline .refused { fill: #fff1d6; stroke: #d4a72c; stroke-dasharray: 3 2; }
svg.timeline .axis { stroke: var(--muted); }
svg.timeline .tick, svg.timeline .lab { fill: var(--muted); }
svg.timeline .m-ok { fill: var(--pass); }
svg.timeline .m-429 { fill: var(--warn); }
svg.timeline .m-4xx { fill: var(--fail); }
svg.timeline .m-5xx { fill: var(--inconclusive); }
svg.timeline .judged { fill: none; stroke: var(--fail); stroke-width: 2.5; }
.legend { font-size: 12px; color: var(--muted); margin: 2px 0 12px; }
`;
