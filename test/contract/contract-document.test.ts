import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { reviewLedgerOperation } from '../../lib/checks/openapi-ledger-operation.ts';
import { CONTRACT_FILE, contractDigest, loadContract } from '../../lib/contract/contract-document.ts';
import { validateOasDocument } from '../../lib/contract/oas-document-schema.ts';

// Loosely typed reads of the parsed YAML: the assertions name each field they look at.
describe('the canonical contract', () => {
  test('is valid OAS 3.1.0', () => {
    const contract = loadContract();
    expect(contract['openapi']).toBe('3.1.0');
    expect(validateOasDocument(contract)).toEqual([]);
  });

  test('is parsed once', () => {
    expect(loadContract()).toBe(loadContract());
  });

  test('has a digest of its bytes', () => {
    expect(contractDigest()).toBe(createHash('sha256').update(readFileSync(CONTRACT_FILE)).digest('hex'));
    expect(contractDigest()).toMatch(/^[0-9a-f]{64}$/);
  });

  test('describes getCreditsOperations as the spec fixes it, stating every bound', () => {
    expect(reviewLedgerOperation(loadContract())).toMatchObject({ contradictions: [], omissions: [] });
  });

  test('names the five tags of §1 and the bearer scheme of §5, applied globally', () => {
    const contract = loadContract() as Record<string, any>;
    expect(contract['tags'].map((t: { name: string }) => t.name)).toEqual(['Service', 'Agents', 'Conversations', 'Tasks', 'Credits']);
    expect(contract['components']['securitySchemes']).toMatchObject({ bearerAuth: { type: 'http', scheme: 'bearer' } });
    expect(contract['security']).toEqual([{ bearerAuth: [] }]);
  });

  test('leaves the unauthenticated routes without security and their payloads open', () => {
    const paths = (loadContract() as Record<string, any>)['paths'];
    for (const path of ['/health', '/openapi.json', '/openapi.yaml']) {
      expect(paths[path]['get']['security'], path).toEqual([]);
      expect(paths[path]['get']['responses']['200']['content'], path).toBeUndefined();
    }
    expect(paths['/me']['get']['security']).toBeUndefined();
    expect(paths['/me']['get']['responses']['200']['content']).toBeUndefined();
  });

  test('declares Retry-After on the 429 response only', () => {
    const responses = (loadContract() as Record<string, any>)['components']['responses'];
    expect(Object.keys(responses['TooManyRequests']['headers'])).toContain('Retry-After');
    for (const name of ['BadRequest', 'Unauthorized', 'ServiceUnavailable']) expect(responses[name]['headers']).toBeUndefined();
  });
});
