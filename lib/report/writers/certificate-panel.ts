import type { Report } from '../report-model.ts';
import { REFERENCE_DEMO, scopeClauses } from '../run-scope.ts';
import { escapeHtml as h } from './text.ts';

/**
 * The certificate panel of report.html: which certification bundle holds this run, its digest,
 * and the command that checks it offline. The report.html beside the bundle knows the bundle's
 * digest; the copy inside cannot (a file cannot hold the digest of the archive it is in), so it
 * shows the exchange record's digest and says so.
 */
export interface CertificatePanel {
  copy: 'beside' | 'inside';
  bundle: {
    /** As the run printed it (relative to the folder it ran in, local folders hidden). */
    path: string;
    form: 'tar.gz' | 'folder';
    /** SHA-256 of the archive, or of the folder's manifest.json; known beside the bundle only. */
    sha256?: string;
  };
  /** SHA-256 of record/exchanges.jsonl. */
  recordSha256: string;
  /** The key id of the signature, when the manifest is signed. */
  keyid?: string;
  /** The whole verify command line. */
  verifyCommand: string;
  /** Where the public key the command needs comes from, when it cannot name its file. */
  publicKeyNote?: string;
}

export const CERTIFICATE_STYLE = `
.certificate { border: 1px solid var(--line); border-left: 4px solid #0969da; border-radius: 6px; padding: 8px 14px; margin: 16px 0 0; }
.certificate h2 { border: 0; margin: 4px 0; padding: 0; font-size: 16px; }
.certificate code { overflow-wrap: anywhere; }
`;

/** What the bundle can certify, first: a demo of the embedded reference certifies no implementation. */
function certifiesHtml(report: Pick<Report, 'meta' | 'counts'>): string {
  const meta = report.meta;
  const scope = scopeClauses(meta, report.counts.waived).filter((c) => c !== REFERENCE_DEMO);
  const also = scope.length === 0 ? '' : ` (${h(scope.join(', '))})`;
  if (meta.target.embedded) return `<dt>Certifies</dt><dd><b>no implementation</b>: ${h(REFERENCE_DEMO)}${also}; to test yours, give <code>run</code> its <code>--base-url</code> or <code>--config</code></dd>`;
  const impl = meta.implementation;
  const named = impl?.label === undefined ? meta.target.baseUrl : [impl.label, impl.version].filter((x) => x !== undefined).join(' ');
  return `<dt>Certifies</dt><dd><code>${h(named)}</code>${meta.certifying ? '' : `: <b>not a certification</b>${also}`}</dd>`;
}

export function certificateHtml(panel: CertificatePanel, report: Pick<Report, 'meta' | 'counts'>): string {
  const b = panel.bundle;
  const what = b.form === 'tar.gz' ? 'SHA-256 of the archive' : 'SHA-256 of its manifest.json, which lists the SHA-256 of every file';
  const digest =
    panel.copy === 'beside' && b.sha256 !== undefined
      ? `<dt>Bundle digest</dt><dd><code>${h(b.sha256)}</code> (${h(what)})</dd>`
      : `<dt>Record digest</dt><dd><code>${h(panel.recordSha256)}</code> (SHA-256 of <code>record/exchanges.jsonl</code>; this copy of the report is inside the bundle, which cannot hold its own digest: the report.html beside the bundle shows it)</dd>`;
  const signature =
    panel.keyid === undefined
      ? '<dt>Signature</dt><dd>none: the manifest is an unsigned in-toto Statement (<code>run --sign-key</code> signs it)</dd>'
      : `<dt>Signature</dt><dd>Ed25519, key id <code>${h(panel.keyid)}</code>: give verify the signer's public key</dd>`;
  return [
    '<section id="certificate" class="certificate"><h2>Certification bundle</h2><dl class="facts">',
    certifiesHtml(report),
    `<dt>Bundle</dt><dd><code>${h(b.path)}</code>${b.form === 'folder' ? ' (a folder)' : ''}: the reports, the exchange record, every checker call with its inputs, the profile and a manifest with the SHA-256 of every file</dd>`,
    digest,
    signature,
    `<dt>Verify offline</dt><dd><code>${h(panel.verifyCommand)}</code>${panel.publicKeyNote === undefined ? '' : ` (${h(panel.publicKeyNote)})`}</dd>`,
    '</dl>',
    '<p class="note">Verify checks every digest (and the signature), runs every checker call again on the recorded exchanges, derives every verdict of this report again from the findings and finds every exchange they cite in the record, without contacting the server; it says whether the run is a certification and exits 0 only when nothing was changed.</p>',
    '</section>',
  ].join('\n');
}
