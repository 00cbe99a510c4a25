import { describe, expect, test } from 'vitest';
import type { ColumnState, MatrixColumn } from '../../lib/matrix/matrix-model.ts';
import { mergeVerifiedLine } from '../../lib/matrix/matrix-text.ts';

function found(name: string, state: ColumnState, source: string): { column: MatrixColumn; source: string } {
  return { column: { id: name, name, state }, source };
}

describe('mergeVerifiedLine', () => {
  test('says how many verify and names each bundle that does not, by column and path', () => {
    expect(
      mergeVerifiedLine([
        found('Acme 2.3', 'verified', 'ci/acme/bundle.tar.gz'),
        found('Acme 2.3', 'does-not-verify', 'ci/acme-forged/bundle.tar.gz'),
        found('embedded reference', 'verified', 'ci/ref/bundle.tar.gz'),
        found('notes.tar.gz', 'does-not-verify', 'notes.tar.gz'),
      ]),
    ).toBe('matrix merge: 2 of 4 bundles verify; these 2 do not: Acme 2.3 (ci/acme-forged/bundle.tar.gz), notes.tar.gz');
    expect(mergeVerifiedLine([found('a', 'verified', 'a/bundle.tar.gz'), found('b', 'does-not-verify', 'b/bundle.tar.gz')])).toBe(
      'matrix merge: 1 of 2 bundles verify; this one does not: b (b/bundle.tar.gz)',
    );
  });

  test('every bundle verifies: said so', () => {
    expect(mergeVerifiedLine([found('a', 'verified', 'a'), found('b', 'verified', 'b')])).toBe('matrix merge: all 2 bundles verify');
    expect(mergeVerifiedLine([found('a', 'verified', 'a')])).toBe('matrix merge: the bundle verifies');
  });
});
