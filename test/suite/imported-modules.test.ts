import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importedModules } from '../../lib/suite/imported-modules.ts';
import { PACKAGE_ROOT } from '../../lib/package-root.ts';

describe('importedModules', () => {
  test('follows relative .ts imports and re-exports, over several lines and through cycles, once each; leaves packages, the roots and files not there out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'asi-imports-'));
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'a.test.ts'), "import { describe } from 'vitest';\nimport {\n  b,\n  c,\n} from './lib/b.ts';\nimport type { T } from './lib/t.ts';\n");
    writeFileSync(join(dir, 'lib', 'b.ts'), "export { c } from './c.ts';\nimport { a } from '../a.test.ts';\nexport const b = 1;\n");
    writeFileSync(join(dir, 'lib', 'c.ts'), "import { b } from './b.ts';\nimport { gone } from './missing.ts';\nexport const c = 2;\n");
    writeFileSync(join(dir, 'lib', 't.ts'), 'export type T = number;\n');
    const found = importedModules([join(dir, 'a.test.ts')]).sort();
    expect(found).toEqual([join(dir, 'lib', 'b.ts'), join(dir, 'lib', 'c.ts'), join(dir, 'lib', 't.ts')].sort());
  });

  test("the suites' modules are the project's own, and include the client and the requirement test", () => {
    const found = importedModules([join(PACKAGE_ROOT, 'suites', 'auth.test.ts')]);
    expect(found.every((f) => f.startsWith(join(PACKAGE_ROOT, 'lib')))).toBe(true);
    expect(found).toContain(join(PACKAGE_ROOT, 'lib', 'http', 'client.ts'));
    expect(found).toContain(join(PACKAGE_ROOT, 'lib', 'suite', 'requirement-test.ts'));
  });
});
