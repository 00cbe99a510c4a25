import { escapeXmlAttribute, escapeXmlText } from '../report/writers/text.ts';
import { REFERENCE_DEMO } from '../report/run-scope.ts';
import type { Verification } from './verify-bundle.ts';

/**
 * An SVG badge in the shape shields.io draws (flat: a grey label, a coloured message) for a
 * bundle that verified. Static: no script, no link, no external font or image; every text from
 * the bundle escaped.
 */

const COLOURS = {
  'reference demo': '#6e7781',
  certified: '#1a7f37',
  conformant: '#2f8132',
  partial: '#0969da',
  'not conformant': '#cf222e',
  incomplete: '#8250df',
} as const;

export type BadgeStatus = keyof typeof COLOURS;

/** Widths of Verdana at 11 px (the badge font), roughly: enough to size the boxes. */
function textWidth(text: string): number {
  let w = 0;
  for (const c of text) {
    if (/[iIl.,:;|!'’ ]/.test(c)) w += c === ' ' ? 3.9 : 3.3;
    else if (/[fjrt()[\]/]/.test(c)) w += 4.6;
    else if (/[mwMW%@]/.test(c)) w += 10.2;
    else if (/[A-Z0-9#]/.test(c)) w += 7.3;
    else w += 6.6;
  }
  return Math.round(w);
}

export function badgeStatus(v: Verification): BadgeStatus {
  // The harness's own reference is never "certified" on a badge, whatever its run says: a badge
  // travels alone, and the reader would take it for an implementation's.
  if (v.run?.embedded === true) return 'reference demo';
  return outcomeStatus(v);
}

/** The status the outcome alone gives. */
function outcomeStatus(v: Verification): Exclude<BadgeStatus, 'reference demo'> {
  if (v.certification.certifying) return 'certified';
  switch (v.outcome?.outcome) {
    case 'conformant':
      return 'conformant';
    case 'partial':
      return 'partial';
    case 'not-conformant':
      return 'not conformant';
    default:
      return 'incomplete';
  }
}

/** What the run tested besides its status, as the badge says it: the subset, waivers, other limits (the reference is its status). */
function scopeOnBadge(v: Verification): string {
  const clauses = (v.scope ?? []).filter((c) => c !== REFERENCE_DEMO);
  return clauses.length === 0 ? '' : ` (${clauses.join(', ')})`;
}

/** The status in words: a conformant run that is no certification says so; the reference's says what else it is. */
function statusText(v: Verification): string {
  const outcome = outcomeStatus(v);
  if (badgeStatus(v) === 'reference demo') return outcome === 'certified' || outcome === 'conformant' ? 'reference demo' : `reference demo, ${outcome}`;
  return outcome === 'conformant' ? 'conformant, not certified' : outcome;
}

/** The message of the badge: status and what the run tested, requirements passed, the run's date. */
export function badgeMessage(v: Verification): string {
  const counts = v.outcome?.counts;
  const total = counts === undefined ? 0 : Object.values(counts).reduce((n, c) => n + c, 0);
  const passed = counts === undefined ? '' : outcomeStatus(v) === 'partial' ? `${counts.pass} pass` : `${counts.pass}/${total} pass`;
  const failed = counts !== undefined && counts.fail > 0 ? `, ${counts.fail} fail` : '';
  const date = v.run?.startedAt.slice(0, 10) ?? '';
  return [`${statusText(v)}${scopeOnBadge(v)}`, `${passed}${failed}`, date].filter((x) => x !== '').join(' · ');
}

/** Whom the run tested, as the badge's title names it: never a name given to the embedded reference. */
function targetText(v: Verification): string {
  if (v.run === undefined) return '';
  // Only the name the harness gives its own switched reference (`asi-conformance reference with defect ...`).
  const switched = v.run.implementation?.label?.startsWith('asi-conformance reference') === true ? `, ${v.run.implementation.label}` : '';
  if (v.run.embedded) return ` of the embedded reference implementation (${REFERENCE_DEMO}${switched})`;
  const impl = v.run.implementation;
  return ` of ${impl?.label ?? v.run.baseUrl}${impl?.version === undefined ? '' : ` ${impl.version}`}`;
}

/** The badge's title (a tooltip, and what a screen reader says): everything the badge stands for. */
export function badgeTitle(v: Verification, verifier: { name: string; version: string }): string {
  const made = v.harness === undefined ? '' : `; made by ${v.harness.name} ${v.harness.version}`;
  const target = targetText(v);
  const why = v.certification.certifying ? '' : `; not a certification: ${v.certification.because.join('; ')}`;
  const counts = v.outcome === undefined ? '' : `; ${Object.entries(v.outcome.counts).map(([k, n]) => `${n} ${k}`).join(', ')}`;
  return `ASI v1 conformance${target}: ${badgeMessage(v)}${counts}; run ${v.run?.id ?? '?'}${made}; bundle sha256 ${v.digest}, verified with ${verifier.name} ${verifier.version}${why}`;
}

export function badgeSvg(v: Verification, verifier: { name: string; version: string }): string {
  const label = 'ASI v1';
  const message = badgeMessage(v);
  const colour = COLOURS[badgeStatus(v)];
  const lw = textWidth(label) + 12;
  const mw = textWidth(message) + 12;
  const width = lw + mw;
  const title = badgeTitle(v, verifier);
  const text = (x: number, t: string): string =>
    `<text x="${x}" y="15" fill="#010101" fill-opacity=".3">${escapeXmlText(t)}</text><text x="${x}" y="14">${escapeXmlText(t)}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${escapeXmlAttribute(`${label}: ${message}`)}">`,
    `<title>${escapeXmlText(title)}</title>`,
    '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>',
    `<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${mw}" height="20" fill="${colour}"/><rect width="${width}" height="20" fill="url(#s)"/></g>`,
    '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="11">',
    text(lw / 2, label),
    text(lw + mw / 2, message),
    '</g></svg>',
    '',
  ].join('\n');
}
