import { afterEach, describe, expect, test } from 'vitest';
import { documentsAgreeFinding } from '../../lib/checks/openapi-agreement.ts';
import { readServedDocument, servedFinding, type ServedDocument } from '../../lib/checks/openapi-documents.ts';
import { ledgerOperationFindings } from '../../lib/checks/openapi-ledger-operation.ts';
import { validOasFinding } from '../../lib/checks/openapi-validity.ts';
import { versionFinding } from '../../lib/checks/openapi-version.ts';
import { servedDescriptionOf } from '../../lib/checks/openapi-served-description.ts';
import { judgeExchanges } from '../../lib/invariants/judge-record.ts';
import type { Exchange } from '../../lib/model/exchange.ts';
import type { Finding } from '../../lib/model/finding.ts';
import { openapiDefects, openapiVariants } from '../../lib/reference/defects/openapi.ts';
import { startReference, type RunningReference } from '../../lib/reference/server.ts';

let running: RunningReference | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

let seq = 0;

/** A request to the reference, recorded as the client records it (a role's token as `Bearer $VARIABLE`). */
async function recorded(ref: RunningReference, path: string, role?: string): Promise<Exchange> {
  const url = `${ref.baseUrl}${path}`;
  const token = role === undefined ? undefined : ref.tokens[role];
  const res = await fetch(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
  const body = await res.text();
  seq += 1;
  return {
    seq,
    startedAt: new Date().toISOString(),
    request: { method: 'GET', url, headers: role === undefined ? {} : { authorization: `Bearer $ASI_TOKEN_${role.toUpperCase()}` }, ...(role === undefined ? {} : { tokenRole: role }) },
    response: { status: res.status, headers: Object.fromEntries(res.headers), body, bodyBytes: Buffer.byteLength(body), truncated: false },
    timings: { totalMs: 0 },
  };
}

/** GET of a document without a token, recorded as an Exchange for the checkers. */
async function fetchDocument(ref: RunningReference, format: 'json' | 'yaml'): Promise<ServedDocument> {
  return readServedDocument(format, await recorded(ref, `/openapi.${format}`));
}

/**
 * The run-wide rules on the served description over a handful of the reference's responses: the
 * document, a last (empty) ledger page, a ledger 400 and a 401.
 */
async function runWideFindings(ref: RunningReference): Promise<Finding[]> {
  const exchanges = [
    await recorded(ref, '/openapi.json'),
    await recorded(ref, '/credits/operations?from=2001-01-01&to=2001-01-02', 'primary'),
    await recorded(ref, '/credits/operations?from=2001-01-02&to=2001-01-01', 'primary'),
    await recorded(ref, '/me'),
  ];
  const context = {
    baseUrl: ref.baseUrl,
    messages: { routes: [] },
    limits: { read: 600, write: 60, windowS: 60 },
    servedDescription: servedDescriptionOf(exchanges, ref.baseUrl),
  };
  return judgeExchanges(exchanges, context, (id) => id.startsWith('openapi/'));
}

/** Every openapi finding of the reference's two documents and of the run-wide rules on a few responses, by requirement id. */
async function findingsOf(defects: string[], variants: string[] = []): Promise<Map<string, Finding>> {
  running = await startReference({ defects, variants });
  const json = await fetchDocument(running, 'json');
  const yaml = await fetchDocument(running, 'yaml');
  const findings = [
    servedFinding('openapi/9.3/json-served', json),
    servedFinding('openapi/9.3/yaml-served', yaml),
    versionFinding('openapi/9.3/version-3.1.0', [json, yaml]),
    documentsAgreeFinding('openapi/9.3/documents-agree', json, yaml),
    validOasFinding('openapi/9.3/valid-oas', [json, yaml]),
    ...ledgerOperationFindings([json, yaml]),
    ...(await runWideFindings(running)),
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

describe('openapi variant switches', () => {
  test.each(openapiVariants.map((v) => v.name))('%s passes every openapi check', async (name) => {
    const findings = await findingsOf([], [name]);
    expect([...findings.values()].map((f) => [f.requirement, f.verdict, f.actual])).toEqual([...findings.keys()].map((id) => [id, 'pass', undefined]));
  });

  test('they change what is served: the media type, and content beyond the spec', async () => {
    running = await startReference({ variants: openapiVariants.map((v) => v.name) });
    for (const format of ['json', 'yaml'] as const) {
      const res = await fetch(`${running.baseUrl}/openapi.${format}`);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    }
    const doc = await fetchDocument(running, 'json');
    const value = doc.parsed.ok ? doc.parsed.value : {};
    expect(value['x-vendor-build']).toBeDefined();
    expect(Object.keys(value['paths'] as object)).toContain('/usage/summary');
  });
});
