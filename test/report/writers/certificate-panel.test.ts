import { describe, expect, test } from 'vitest';
import { certificateHtml, type CertificatePanel } from '../../../lib/report/writers/certificate-panel.ts';
import { stateCounts } from '../../../lib/report/report-model.ts';
import { runMetadata } from '../report-fixtures.ts';

const PANEL: CertificatePanel = { copy: 'inside', bundle: { path: 'bundle.tar.gz', form: 'tar.gz' }, recordSha256: 'e'.repeat(64), verifyCommand: 'asi-conformance verify bundle.tar.gz' };
const counts = { ...stateCounts([]), pass: 10 };

describe('the certificate panel says first what the bundle certifies', () => {
  test('a run of the embedded reference: no implementation, a demo', () => {
    const html = certificateHtml(PANEL, { meta: runMetadata(), counts });
    expect(html).toContain('<dt>Certifies</dt><dd><b>no implementation</b>: a demo of the embedded reference implementation, not of an implementation under test; to test yours, give <code>run</code> its <code>--base-url</code> or <code>--config</code></dd>');
  });

  test('a certifying run of a target: its name', () => {
    const meta = runMetadata({ target: { baseUrl: 'https://api.acme.example/v1', embedded: false, profile: 'acme.yaml' }, implementation: { label: 'Acme Agents', version: '2.3.1' } });
    expect(certificateHtml(PANEL, { meta, counts })).toContain('<dt>Certifies</dt><dd><code>Acme Agents 2.3.1</code></dd>');
  });

  test('a subset with waivers at other limits: not a certification, and each said', () => {
    const meta = runMetadata({
      target: { baseUrl: 'https://api.acme.example/v1', embedded: false, profile: 'acme.yaml' },
      certifying: false,
      selection: { suites: ['auth'], only: [], skip: [] },
      limits: { read: 30, write: 10, windowS: 4 },
    });
    expect(certificateHtml(PANEL, { meta, counts: { ...counts, waived: 2 } })).toContain(
      '<dt>Certifies</dt><dd><code>https://api.acme.example/v1</code>: <b>not a certification</b> (a subset of suites, with 2 waivers, at limits other than the spec&#39;s)</dd>',
    );
  });
});
