import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { openBundle } from '../../lib/certification/open-bundle.ts';
import { readTarGz, TarProblem } from '../../lib/certification/tar-reader.ts';
import { BLOCK, ustarHeader, writeTarGz } from '../../lib/certification/tar-writer.ts';
import { BundleError } from '../../lib/errors.ts';

const work = mkdtempSync(join(tmpdir(), 'asi-tar-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const FILES = [
  { name: 'manifest.json', data: Buffer.from('{}\n') },
  { name: 'record/exchanges.jsonl', data: Buffer.from('{"seq":1}\n'.repeat(100)) },
  { name: 'report.json', data: Buffer.alloc(BLOCK, 0x61) },
];

async function archive(files = FILES, mtime = 1_700_000_000): Promise<string> {
  const out = join(mkdtempSync(join(work, 'a-')), 'bundle.tar.gz');
  await writeTarGz(out, files.map((f) => ({ ...f, size: f.data.length })), mtime);
  return out;
}

/** A header as a hostile archive would write it: the fields given, the checksum made right. */
function header(name: string, size: number, type = '0', patch: (h: Buffer) => void = () => {}): Buffer {
  const h = ustarHeader('x', size, 0);
  h.fill(0, 0, 100);
  Buffer.from(name).copy(h, 0);
  h.write(type, 156, 'latin1');
  patch(h);
  h.write('        ', 148, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

function hostile(...parts: Buffer[]): Buffer {
  return gzipSync(Buffer.concat([...parts, Buffer.alloc(2 * BLOCK)]));
}

function problem(gz: Buffer): string {
  try {
    readTarGz(gz);
  } catch (err) {
    if (err instanceof TarProblem) return err.message;
    throw err;
  }
  return 'read without a problem';
}

describe('writeTarGz', () => {
  test('the same files make the same bytes, and tar reads them back', async () => {
    const a = await archive();
    const b = await archive();
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
    expect(execFileSync('tar', ['tzvf', a], { encoding: 'utf8', env: { ...process.env, TZ: 'UTC' } })).toMatch(/^-rw-r--r-- 0\/0 +3 2023-11-14 22:13 manifest\.json$/m);
    const back = readTarGz(readFileSync(a));
    expect([...back.keys()]).toEqual(FILES.map((f) => f.name));
    for (const f of FILES) expect(back.get(f.name)!.equals(f.data)).toBe(true);
  });

  test('an archive made by tar is read too, ./ prefixes and folder entries included', () => {
    const dir = mkdtempSync(join(work, 'src-'));
    mkdirSync(join(dir, 'record'));
    writeFileSync(join(dir, 'manifest.json'), '{}');
    writeFileSync(join(dir, 'record', 'exchanges.jsonl'), '{}\n');
    const out = join(work, 'gnu.tar.gz');
    execFileSync('tar', ['czf', out, '-C', dir, '.']);
    expect([...readTarGz(readFileSync(out)).keys()].sort()).toEqual(['manifest.json', 'record/exchanges.jsonl']);
  });
});

describe('readTarGz on hostile archives', () => {
  test.each([
    ['../outside', 'a path that climbs out of the bundle (..)'],
    ['record/../../etc/passwd', 'a path that climbs out of the bundle (..)'],
    ['/etc/passwd', 'an absolute path'],
    ['report .json', 'a name with characters other than letters, digits, dot, dash and underscore'],
  ])('%s is refused', (name, why) => {
    expect(problem(hostile(header(name, 0)))).toBe(`the entry ${JSON.stringify(name)} has ${why}`);
  });

  test.each([
    ['2', 'a symbolic link'],
    ['1', 'a hard link'],
    ['x', 'a pax extended header'],
    ['L', 'a GNU long name'],
    ['3', 'a character device'],
  ])('an entry of type %s (%s) is refused, never followed', (type, what) => {
    expect(problem(hostile(header('report.json', 0, type, (h) => h.write('/etc/passwd', 157, 'latin1'))))).toBe(`"report.json" is ${what}: a bundle holds regular files only`);
  });

  test('a bad checksum, a size past the data, no end marker, a name twice, not gzip: each one clause', () => {
    const bad = header('report.json', 0);
    bad[0] = 0x52;
    expect(problem(hostile(bad))).toBe('the header at byte 0 fails its checksum');
    expect(problem(gzipSync(Buffer.concat([header('report.json', 4096), Buffer.alloc(BLOCK)])))).toBe('report.json is cut short: 4096 bytes announced, 512 left');
    expect(problem(gzipSync(header('report.json', 0)))).toBe('the archive ends without its end marker (cut short?)');
    expect(problem(hostile(header('a.json', 0), header('a.json', 0)))).toBe('a.json is in the archive twice');
    expect(problem(Buffer.from('PK\x03\x04 a zip'))).toBe('not a gzip file');
    expect(problem(Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]))).toMatch(/^not a readable gzip file \(/);
    expect(problem(gzipSync(Buffer.alloc(BLOCK, 0x41)))).toBe('the entry at byte 0 is not a ustar header');
  });

  test('more files than a bundle may hold are refused', () => {
    const many = Array.from({ length: 1001 }, (_, i) => header(`f${i}.json`, 0));
    expect(problem(hostile(...many))).toBe('more than 1000 files');
  });
});

describe('openBundle on folders', () => {
  test('a symbolic link in a bundle folder is refused, not followed', () => {
    const dir = mkdtempSync(join(work, 'folder-'));
    writeFileSync(join(dir, 'manifest.json'), '{}');
    symlinkSync('/etc/passwd', join(dir, 'report.json'));
    expect(() => openBundle(dir)).toThrow(BundleError);
    expect(() => openBundle(dir)).toThrow(`${dir}: report.json is a symbolic link: a bundle holds regular files only`);
  });

  test('a folder without a manifest is no bundle: said first, before any name in it is judged', () => {
    const dir = mkdtempSync(join(work, 'folder-'));
    writeFileSync(join(dir, 'report.json'), '{}');
    writeFileSync(join(dir, '.java'), '');
    mkdirSync(join(dir, 'sub'));
    expect(() => openBundle(dir)).toThrow(
      `${dir}: is not a certification bundle (the bundle.tar.gz or --bundle-dir folder a run writes, with its manifest.json): a folder without manifest.json (it holds .java, report.json, sub)`,
    );
    const empty = mkdtempSync(join(work, 'folder-'));
    expect(() => openBundle(empty)).toThrow(`${empty}: is not a certification bundle (the bundle.tar.gz or --bundle-dir folder a run writes, with its manifest.json): a folder without manifest.json (it is empty)`);
  });

  test('an archive without a manifest, and a file that is no archive, are no bundle', async () => {
    const dir = mkdtempSync(join(work, 'folder-'));
    const archive = join(dir, 'notes.tar.gz');
    await writeTarGz(archive, [{ name: 'report.json', size: 2, data: Buffer.from('{}') }], 0);
    expect(() => openBundle(archive)).toThrow(`${archive}: is not a certification bundle (the bundle.tar.gz or --bundle-dir folder a run writes, with its manifest.json): an archive without manifest.json (it holds report.json)`);
    const random = join(dir, 'random.bin');
    writeFileSync(random, Buffer.from([0x00, 0xff, 0x13, 0x37, 0x8b, 0x1f]));
    expect(() => openBundle(random)).toThrow(`${random}: is not a certification bundle (the bundle.tar.gz or --bundle-dir folder a run writes, with its manifest.json): not a gzip file`);
  });
});
