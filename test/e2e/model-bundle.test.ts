import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { bundledReport } from '../../lib/certification/bundled-report.ts';
import { openBundle } from '../../lib/certification/open-bundle.ts';
import { verifyBundle } from '../../lib/certification/verify-bundle.ts';
import type { Report } from '../../lib/report/report-model.ts';
import { runCli } from '../support/cli.ts';
import { referenceTarget, type ReferenceTarget } from '../support/reference-target.ts';

const work = mkdtempSync(join(tmpdir(), 'asi-model-bundle-'));
const targets: ReferenceTarget[] = [];
afterAll(async () => {
  for (const t of targets) await t.close();
  rmSync(work, { recursive: true, force: true });
});

/**
 * On a busy ledger (100k generated rows over 30 days) the run knows the rows of a few minutes only,
 * too short a span for a window valid in every zone: the model says which bound forms it could not
 * draw, in a finding of its own, so the bundle still verifies (a note added to a judged finding
 * afterwards did not).
 */
test('the query-space model on a ledger it cannot cover whole: what it left out is said, and the bundle verifies', async () => {
  const t = await referenceTarget({ ledger: { generatedRows: 100_000 } });
  targets.push(t);
  const r = await runCli(['run', '--config', t.profile, '--suite', 'ledger-model', '-q', '--out', work], { env: t.env });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const bundle = openBundle(join(work, readdirSync(work)[0]!, 'bundle.tar.gz'));
  const v = await verifyBundle(bundle);
  expect(v.problems).toEqual([]);
  const report = (bundledReport(bundle) as { report: Report }).report;
  const notes = report.results.find((x) => x.requirement.id === 'ledger/4.1/parameter-combinations')?.findings.map((f) => f.note ?? '');
  expect(notes?.some((n) => n.startsWith('not drawn: '))).toBe(true);
});
