import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { catalogue } from '../../lib/catalogue/index.ts';
import { clientRequirements } from '../../lib/catalogue/client.ts';
import { catalogueMarkdown, domainsMarkdown } from '../../lib/cli/list-command.ts';
import { INPUT_DOMAINS } from '../../lib/domains/index.ts';

describe('the requirement catalogue', () => {
  test('ids are unique and of the form area/section/slug, the area matching', () => {
    const ids = catalogue.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of catalogue) {
      expect(r.id).toMatch(/^[a-z]+\/\d+(\.\d+)*\/[a-z0-9][a-z0-9.-]*$/);
      expect(r.id.startsWith(`${r.area}/${r.section}/`), r.id).toBe(true);
      expect(r.statement.length, r.id).toBeGreaterThan(10);
    }
  });

  test('the client requirements: of the same form, each quoting the spec, and none in the server catalogue a run selects', () => {
    const spec = readFileSync(new URL('../../docs/spec/agents-service-interface-v1.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    for (const r of clientRequirements) {
      expect(r.id.startsWith(`client/${r.section}/`), r.id).toBe(true);
      for (const f of r.quote!.split(/\s*…\s*/)) expect(spec.includes(f), `${r.id}: "${f}" is not in the spec`).toBe(true);
    }
    expect(catalogue.filter((r) => r.id.startsWith('client/'))).toEqual([]);
  });

  test('every MUST quotes the spec sentence it rests on', () => {
    const spec = readFileSync(new URL('../../docs/spec/agents-service-interface-v1.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    for (const r of catalogue.filter((x) => x.level === 'MUST')) {
      expect(r.quote, r.id).toBeDefined();
      const words = r.quote!.replace(/\s+/g, ' ').replace(/^> /, '');
      const fragments = words.split(/\s*(?:\.\.\.|…)\s*/).filter((f) => f.length > 0);
      for (const f of fragments) expect(spec.includes(f), `${r.id}: "${f}" is not in the spec`).toBe(true);
    }
  });

  test('docs/requirements.md is the catalogue as `list --markdown` prints it', () => {
    const doc = readFileSync(new URL('../../docs/requirements.md', import.meta.url), 'utf8');
    expect(doc).toBe(catalogueMarkdown(catalogue, INPUT_DOMAINS, clientRequirements));
  });

  test('the input domains render one row per input, each open point naming a heading of the register', () => {
    const rows = domainsMarkdown(INPUT_DOMAINS).filter((l) => l.startsWith('| `'));
    expect(rows.map((r) => /^\| `([^`]+)`/.exec(r)![1])).toEqual(INPUT_DOMAINS.map((d) => d.id));
    for (const r of rows) expect(r.split(/(?<!\\)\|/).length, r).toBe(10);
    const register = readFileSync(new URL('../../docs/ambiguity-register.md', import.meta.url), 'utf8');
    // An open point names an entry of the register: its bold title, or a heading of its own.
    const named = (title: string): boolean => register.includes(`**${title}.**`) || register.includes(`\n## ${title}\n`);
    for (const d of INPUT_DOMAINS) for (const o of d.open) expect(named(o.register), `${d.id}: register entry "${o.register}"`).toBe(true);
  });

  test('every domain quotes the spec', () => {
    const spec = readFileSync(new URL('../../docs/spec/agents-service-interface-v1.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    // Table cells are quoted apart by `|`, sentences of different places by `[…]`; each sentence is the spec's own.
    const fragments = (quote: string): string[] => quote.split(/\s*(?:\||\[…\])\s*/).flatMap((f) => f.split(/(?<=\.)\s+(?=[A-Z`])/));
    for (const d of INPUT_DOMAINS) for (const f of fragments(d.quote)) expect(spec.includes(f), `${d.id}: "${f}"`).toBe(true);
  });
});
