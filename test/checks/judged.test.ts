import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import '../../lib/checks/all-checkers.ts';
import { checkerNamed, checkerNames, judged, recordJudgements } from '../../lib/checks/judged.ts';
import { fail, pass, type Finding } from '../../lib/model/finding.ts';

const CHECKS = new URL('../../lib/checks/', import.meta.url);

describe('judged checkers', () => {
  test('every module with a judged checker is loaded by all-checkers.ts, and each name is its module/function', () => {
    const list = readFileSync(new URL('all-checkers.ts', CHECKS), 'utf8');
    for (const file of readdirSync(CHECKS).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(new URL(file, CHECKS), 'utf8');
      const names = [...text.matchAll(/export const (\w+) = judged\('([^']+)'/g)];
      if (names.length > 0) expect(list, file).toContain(`import './${file}';`);
      for (const [, fn, name] of names) expect(name).toBe(`${file.replace(/\.ts$/, '')}/${fn}`);
    }
    expect(checkerNames().length).toBeGreaterThan(60);
  });

  test('every exported function of lib/checks that gives findings is judged: a finding no judgement gave cannot be verified', () => {
    const unjudged: string[] = [];
    for (const file of readdirSync(CHECKS).filter((f) => f.endsWith('.ts'))) {
      const source = ts.createSourceFile(file, readFileSync(new URL(file, CHECKS), 'utf8'), ts.ScriptTarget.ES2022, true);
      for (const st of source.statements) {
        if (!ts.isFunctionDeclaration(st) || st.name === undefined || st.type === undefined) continue;
        const exported = st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) === true;
        if (exported && /^(readonly )?Finding(\[\])?$/.test(st.type.getText(source))) unjudged.push(`${file}: ${st.name.text}`);
      }
    }
    expect(unjudged).toEqual([]);
  });

  test('a call is recorded once, with its inputs and output; a checker it calls is part of it; findings cite it', () => {
    const calls: Array<{ checker: string; args: readonly unknown[] }> = [];
    const inner = judged('test/inner', (n: number): Finding => (n > 0 ? pass('x/1/a') : fail('x/1/a', 'positive', String(n), [])));
    const outer = judged('test/outer', (n: number): Finding[] => [inner(n), inner(-n)]);
    recordJudgements({
      record(checker, args) {
        calls.push({ checker, args });
        return `j${calls.length}`;
      },
    });
    try {
      const found = outer(2);
      expect(calls).toEqual([{ checker: 'test/outer', args: [2] }]);
      expect(found.map((f) => f.judgement)).toEqual([
        { id: 'j1', index: 0 },
        { id: 'j1', index: 1 },
      ]);
    } finally {
      recordJudgements(undefined);
    }
    expect(checkerNamed('test/outer')?.(1)).toHaveLength(2);
    expect(() => judged('test/outer', () => [])).toThrow(/registered twice/);
  });
});
