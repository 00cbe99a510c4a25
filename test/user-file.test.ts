import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { readUserBytes, readUserFile } from '../lib/user-file.ts';

/** Files the user names (profiles, expectations, reports, keys, bundles): read whole, within a bound, never a device. */
const dir = mkdtempSync(join(tmpdir(), 'asi-user-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function problem(read: () => unknown): string {
  try {
    read();
  } catch (err) {
    return (err as Error).message;
  }
  return 'read';
}

const fail = (message: string): Error => new Error(message);

describe('a file the user names', () => {
  test('is read whole', () => {
    const path = join(dir, 'profile.yaml');
    writeFileSync(path, 'base_url: http://127.0.0.1/v1\n'.repeat(10_000));
    expect(readUserFile(path, fail)).toBe('base_url: http://127.0.0.1/v1\n'.repeat(10_000));
  });

  test('a device is refused before it is read: /dev/zero never ends', () => {
    expect(problem(() => readUserBytes('/dev/zero', fail))).toBe('is a device, not a file');
  });

  test('a missing file, and a folder, say so', () => {
    expect(problem(() => readUserBytes(join(dir, 'missing.yaml'), fail))).toBe('no such file');
    expect(problem(() => readUserBytes(dir, fail))).toBe('cannot be read (EISDIR)');
  });

  test('a file larger than the bound is refused by its size', () => {
    const path = join(dir, 'big.json');
    writeFileSync(path, Buffer.alloc(2048, 0x20));
    expect(problem(() => readUserBytes(path, fail, 1024))).toBe('holds more than 0.0009765625 MiB; expected a file of at most that');
    expect(readUserBytes(path, fail, 2048).length).toBe(2048);
  });

  test('a pipe (`<(...)`) is read to its end, and only up to the bound', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = (bytes: number): Promise<number | null> =>
      new Promise((resolve) => spawn('sh', ['-c', `head -c ${bytes} /dev/zero > "$0" 2>/dev/null`, fifo]).on('close', resolve));
    const small = writer(100_000);
    expect(readUserBytes(fifo, fail).length).toBe(100_000);
    await small;
    // The writer of an endless stream is stopped by the reader closing the pipe.
    const endless = new Promise((resolve) => spawn('sh', ['-c', 'cat /dev/zero > "$0" 2>/dev/null', fifo]).on('close', resolve));
    expect(problem(() => readUserBytes(fifo, fail, 1024 * 1024))).toBe('holds more than 1 MiB; expected a file of at most that');
    await endless;
  });
});
