import { stringify } from 'yaml';
import { loadContract } from '../../lib/contract/contract-document.ts';
import type { Exchange } from '../../lib/model/exchange.ts';
import { readServedDocument, type DocumentFormat, type ServedDocument } from '../../lib/checks/openapi-documents.ts';

let seq = 0;

/** A recorded GET of a served document, as the client would record it. */
export function documentExchange(format: DocumentFormat, status: number, body: string): Exchange {
  seq += 1;
  return {
    seq,
    startedAt: '2024-05-01T10:00:00.000Z',
    request: { method: 'GET', url: `http://127.0.0.1:1/v1/openapi.${format}`, headers: {} },
    response: {
      status,
      headers: { 'content-type': format === 'json' ? 'application/json' : 'application/yaml' },
      body,
      bodyBytes: Buffer.byteLength(body),
      truncated: false,
    },
    timings: { totalMs: 1 },
  };
}

// Tests reach deep into OpenAPI documents to change one field; typing every level would only
// repeat the OAS schema, so the fixtures hand out loosely typed objects.

/** The canonical contract, cloned so that a test may change it. */
export function contractCopy(): Record<string, any> {
  return structuredClone(loadContract()) as Record<string, any>;
}

export function served(format: DocumentFormat, document: unknown, status = 200): ServedDocument {
  const body = format === 'json' ? JSON.stringify(document, null, 2) : stringify(document);
  return readServedDocument(format, documentExchange(format, status, body));
}

/** The ledger operation of a document (for tests that change it). */
export function ledgerGet(document: Record<string, any>): Record<string, any> {
  return document['paths']['/credits/operations']['get'];
}

export function ledgerParameter(document: Record<string, any>, name: string): Record<string, any> {
  return ledgerGet(document)['parameters'].find((p: Record<string, unknown>) => p['name'] === name);
}
