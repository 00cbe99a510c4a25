import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { catalogue } from '../../lib/catalogue/index.ts';
import { catalogueMarkdown } from '../../lib/cli/list-command.ts';

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
    expect(doc).toBe(catalogueMarkdown(catalogue));
  });
});
