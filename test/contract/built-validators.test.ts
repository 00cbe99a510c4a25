import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { contractValidatorsSource } from '../../lib/contract/contract-validators-source.ts';
import { BUILT_CONTRACT_VALIDATORS, builtContractValidators, COMPONENT_NAMES, compiledContractValidators, type ContractValidators } from '../../lib/contract/validate.ts';
import { SSE_EVENT_NAMES } from '../../lib/spec-constants.ts';
import { jsonVariants, type Json } from '../support/json-variants.ts';

/**
 * The build writes the contract's validators as code (dist/contract/, `npm test` builds first);
 * without them the schemas are compiled. Both must give every value the same answer and errors.
 */

const built = await builtContractValidators();
const compiled = compiledContractValidators();

const row: Json = { operation_uuid: 'op_1', operation_type: 'agent_message', feature: 'deal_agent', credits: 1.5, metadata: { agent_id: 'da_1' }, timestamp: '2024-05-01T10:00:00.123Z' };
const valid: Record<string, Json> = {
  CreditOperation: row,
  CreditsOperations: { operations: [row, row], next_cursor: 'abc' },
  Error: { error: { code: 'auth.invalid_token', category: 'permanent', message: 'No.', request_id: 'req_1' } },
  text_delta: { content: 'Hel' },
  tool_use: { id: 't1', tool_name: 'crm_lookup' },
  tool_result: { id: 't1' },
  done: { conversation_id: 'c1', messages: [{ role: 'assistant', content: 'hi' }] },
  error: { code: 'upstream.unavailable', category: 'transient', message: 'Try later.' },
};
const REPLACEMENTS: Json[] = [3, -1, 1.5, '', 'x', '2024-05-01T10:00:00+01:00', '2024-02-30T00:00:00Z', '2024-05-01T10:00:00Z', null, true, [], [1], {}, 'transient', 'rate_limited', 'fatal'];

function validatorOf(v: ContractValidators, name: string): ContractValidators['component']['Error'] {
  return (COMPONENT_NAMES as readonly string[]).includes(name) ? v.component[name as 'Error'] : v.event[name as 'done'];
}

describe('the contract validators the build writes', () => {
  test('are there, made from these sources, and are the code ajv makes of the schemas now', () => {
    expect(built, `npm test builds dist/ first: ${BUILT_CONTRACT_VALIDATORS}`).toBeDefined();
    expect(readFileSync(BUILT_CONTRACT_VALIDATORS, 'utf8')).toBe(contractValidatorsSource());
  });

  test('stand aside when the sources changed since (a digest of another build)', async () => {
    const stale = BUILT_CONTRACT_VALIDATORS.replace(/\.js$/, '.stale-test.js');
    writeFileSync(stale, readFileSync(BUILT_CONTRACT_VALIDATORS, 'utf8').replace(/BUILT_SOURCES_DIGEST = "[0-9a-f]{64}"/, `BUILT_SOURCES_DIGEST = "${'0'.repeat(64)}"`));
    try {
      expect(await builtContractValidators(stale)).toBeUndefined();
    } finally {
      rmSync(stale, { force: true });
    }
  });

  const names = [...COMPONENT_NAMES, ...SSE_EVENT_NAMES];
  const cases = names.flatMap((name) => [[name, `${name} valid`, valid[name]!] as const, ...jsonVariants(name, valid[name]!, REPLACEMENTS).map(([label, doc]) => [name, label, doc] as const)]);
  test(`answer as the compiled schemas do, errors and all, over ${cases.length} values`, () => {
    let invalid = 0;
    for (const [name, label, doc] of cases) {
      const b = validatorOf(built!, name);
      const c = validatorOf(compiled, name);
      const ok = c(doc);
      expect(b(doc), label).toBe(ok);
      expect(b.errors ?? null, label).toEqual(c.errors ?? null);
      if (!ok) invalid += 1;
    }
    expect(invalid).toBeGreaterThan(cases.length / 3);
    expect(names.every((n) => validatorOf(compiled, n)(valid[n]))).toBe(true);
  });
});
