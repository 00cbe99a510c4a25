import { gunzipSync } from 'node:zlib';
import { BUNDLE_LIMITS, badEntryName } from './bundle-layout.ts';
import { BLOCK } from './tar-writer.ts';

/**
 * Reads a gzip'd ustar archive that may be hostile: regular files only (a link, a device, a long
 * name extension or a pax header is refused, not followed), names that stay inside the bundle,
 * every size within BUNDLE_LIMITS, checksums checked. Folder entries (`tar czf` adds them) are
 * accepted and carry nothing. Problems are thrown as `TarProblem` with one clause saying what.
 */

export class TarProblem extends Error {
  override name = 'TarProblem';
}

const TYPE_NAMES: Record<string, string> = {
  '1': 'a hard link',
  '2': 'a symbolic link',
  '3': 'a character device',
  '4': 'a block device',
  '6': 'a FIFO',
  '7': 'a contiguous file',
  x: 'a pax extended header',
  g: 'a pax global header',
  L: 'a GNU long name',
  K: 'a GNU long link name',
};

function text(block: Buffer, offset: number, width: number): string {
  const field = block.subarray(offset, offset + width);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? width : end).toString('utf8');
}

function octalField(block: Buffer, offset: number, width: number, what: string, at: number): number {
  const raw = text(block, offset, width).trim();
  // Base-256 (a GNU extension for sizes past 8 GiB) has its high bit set: no digits, refused here.
  if (!/^[0-7]+$/.test(raw)) throw new TarProblem(`the header at byte ${at} has no octal ${what}`);
  return Number.parseInt(raw, 8);
}

function checksumOf(block: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i += 1) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  return sum;
}

function isZero(block: Buffer): boolean {
  for (const byte of block) if (byte !== 0) return false;
  return true;
}

/** The gzip'd archive unpacked: the tar bytes, at most BUNDLE_LIMITS.unpackedBytes plus its headers. */
function gunzipBounded(gz: Buffer): Buffer {
  if (gz.length < 2 || gz[0] !== 0x1f || gz[1] !== 0x8b) throw new TarProblem('not a gzip file');
  // Headers and padding take at most two blocks per file, and the end marker two more.
  const bound = BUNDLE_LIMITS.unpackedBytes + (2 * BUNDLE_LIMITS.files + 2) * BLOCK;
  try {
    return gunzipSync(gz, { maxOutputLength: bound });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') throw new TarProblem(`unpacks to more than ${BUNDLE_LIMITS.unpackedBytes / 1024 / 1024} MiB`);
    throw new TarProblem(`not a readable gzip file (${code ?? (err as Error).message})`);
  }
}

/** The files of a gzip'd ustar archive, by name, in archive order. */
export function readTarGz(gz: Buffer): Map<string, Buffer> {
  const tar = gunzipBounded(gz);
  const files = new Map<string, Buffer>();
  let total = 0;
  let at = 0;
  for (;;) {
    if (at + BLOCK > tar.length) throw new TarProblem('the archive ends without its end marker (cut short?)');
    const block = tar.subarray(at, at + BLOCK);
    if (isZero(block)) break;
    const magic = block.subarray(257, 263).toString('latin1');
    if (magic !== 'ustar\0' && magic !== 'ustar ') throw new TarProblem(`the entry at byte ${at} is not a ustar header`);
    const sum = octalField(block, 148, 8, 'checksum', at);
    if (sum !== checksumOf(block)) throw new TarProblem(`the header at byte ${at} fails its checksum`);
    const prefix = magic === 'ustar\0' ? text(block, 345, 155) : '';
    const raw = prefix === '' ? text(block, 0, 100) : `${prefix}/${text(block, 0, 100)}`;
    const type = String.fromCharCode(block[156]!);
    const size = octalField(block, 124, 12, 'size', at);
    // `tar czf bundle.tar.gz .` writes names as ./report.json and folders as record/.
    const name = raw.replace(/^(\.\/)+/, '').replace(/\/$/, '');
    at += BLOCK;
    if (type === '5') {
      if (name !== '' && name !== '.' && badEntryName(name) !== undefined) throw new TarProblem(`the folder ${JSON.stringify(raw)} is ${badEntryName(name)}`);
      continue;
    }
    if (type !== '0' && type !== '\0') throw new TarProblem(`${JSON.stringify(raw)} is ${TYPE_NAMES[type] ?? `an entry of type ${JSON.stringify(type)}`}: a bundle holds regular files only`);
    const bad = badEntryName(name);
    if (bad !== undefined) throw new TarProblem(`the entry ${JSON.stringify(raw)} has ${bad}`);
    if (files.has(name)) throw new TarProblem(`${name} is in the archive twice`);
    if (files.size >= BUNDLE_LIMITS.files) throw new TarProblem(`more than ${BUNDLE_LIMITS.files} files`);
    total += size;
    if (total > BUNDLE_LIMITS.unpackedBytes) throw new TarProblem(`its files hold more than ${BUNDLE_LIMITS.unpackedBytes / 1024 / 1024} MiB`);
    if (at + size > tar.length) throw new TarProblem(`${name} is cut short: ${size} bytes announced, ${tar.length - at} left`);
    files.set(name, tar.subarray(at, at + size));
    at += Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}
