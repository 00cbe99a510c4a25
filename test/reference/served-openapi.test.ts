import { afterEach, describe, expect, test } from 'vitest';
import { documentsAgreeFinding } from '../../lib/checks/openapi-agreement.ts';
import { readServedDocument, servedFinding, type ServedDocument } from '../../lib/checks/openapi-documents.ts';
import { ledgerOperationFindings } from '../../lib/checks/openapi-ledger-operation.ts';
import { validOasFinding } from '../../lib/checks/openapi-validity.ts';
import { versionFinding } from '../../lib/checks/openapi-version.ts';
import type { Exchange } from '../../lib/model/exchange.ts';
import type { Finding } from '../../lib/model/finding.ts';
import { openapiDefects } from '../../lib/reference/defects/openapi.ts';
import { startReference, type RunningReference } from '../../lib/reference/server.ts';

let running: RunningReference | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** GET of a document without a token, recorded as an Exchange for the checkers. */
async function fetchDocument(ref: RunningReference, format: 'json' | 'yaml'): Promise<ServedDocument> {
  const url = `${ref.baseUrl}/openapi.${format}`;
  const res = await fetch(url);
  const body = await res.text();
  const exchange: Exchange = {
    seq: 1,
    startedAt: new Date().toISOString(),
    request: { method: 'GET', url, headers: {} },
    response: { status: res.status, headers: Object.fromEntries(res.headers), body, bodyBytes: Buffer.byteLength(body), truncated: false },
    timings: { totalMs: 0 },
  };
  return readServedDocument(format, exchange);
}

/** Every openapi finding of the reference's two documents, by requirement id. */
async function findingsOf(defects: string[]): Promise<Map<string, Finding>> {
  running = await startReference({ defects });
  const json = await fetchDocument(running, 'json');
  const yaml = await fetchDocument(running, 'yaml');
  const findings = [
    servedFinding('openapi/9.3/json-served', json),
    servedFinding('openapi/9.3/yaml-served', yaml),
    versionFinding('openapi/9.3/version-3.1.0', [json, yaml]),
    documentsAgreeFinding('openapi/9.3/documents-agree', json, yaml),
    validOasFinding('openapi/9.3/valid-oas', [json, yaml]),
    ...ledgerOperationFindings([json, yaml]),
  ];
  return new Map(findings.map((f) => [f.requirement, f]));
}

describe('the served description of the reference', () => {
  test('passes every openapi check', async () => {
    const findings = await findingsOf([]);
    expect([...findings.values()].map((f) => [f.requirement, f.verdict, f.actual])).toEqual([...findings.keys()].map((id) => [id, 'pass', undefined]));
  });

  test('names the reference server and its own routes', async () => {
    running = await startReference();
    const doc = await fetchDocument(running, 'json');
    const value = doc.parsed.ok ? doc.parsed.value : {};
    expect(value['servers']).toEqual([{ url: running.baseUrl, description: 'asi-conformance reference implementation' }]);
    expect(Object.keys(value['paths'] as object)).toEqual(
      expect.arrayContaining(['/credits/operations', '/deal-agents/{agent_id}/messages', '/company-agents/{agent_id}/messages', '/message-jobs/{job_id}']),
    );
  });

  test('/openapi.json needs no token but accepts one', async () => {
    running = await startReference();
    const res = await fetch(`${running.baseUrl}/openapi.json`, { headers: { authorization: `Bearer ${running.tokens['primary']}` } });
    expect(res.status).toBe(200);
  });
});

describe('openapi defect switches', () => {
  test.each(openapiDefects.map((d) => [d.name, d.breaks] as const))('%s fails %j', async (name, breaks) => {
    const findings = await findingsOf([name]);
    for (const id of breaks) expect(findings.get(id)?.verdict, id).toBe('fail');
  });
});
