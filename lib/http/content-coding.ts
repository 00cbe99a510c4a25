import { pipeline, Transform, type Duplex, type Readable } from 'node:stream';
import { constants, createBrotliDecompress, createUnzip } from 'node:zlib';

/**
 * Content codings of a response body (RFC 9110 §8.4), undone before the body is judged. The
 * harness sends no Accept-Encoding, and "a request without any Accept-Encoding header field implies
 * that the user agent has no preferences regarding content-codings" (RFC 9110 §12.5.3): a server,
 * or a gateway before it, may compress any answer. The spec says nothing of codings, so a body is
 * judged as what it encodes, never as the bytes that carried it.
 */

/** A body as it is read: chunks, and a way to stop the transfer (undici's body, or the decoder after it). */
export type BodySource = AsyncIterable<Buffer> & { destroy: (err?: Error) => unknown };

/** The code of an exchange whose body is not what its Content-Encoding says. */
export const UNDECODABLE_CODE = 'ASI_BODY_UNDECODABLE';
/** The code of an exchange whose body has a content coding the harness cannot undo. */
export const UNKNOWN_CODING_CODE = 'ASI_BODY_CODING_UNKNOWN';

/**
 * Decoders that tolerate a body that ends early, as a browser does (a cut transfer is the
 * transport's to report), but not one that is not of its coding. `deflate` is the zlib format
 * (RFC 9110 §8.4.1.2); unzip also takes a gzip body sent under that name.
 */
const DECODERS: Record<string, () => Duplex> = {
  gzip: () => createUnzip({ finishFlush: constants.Z_SYNC_FLUSH }),
  'x-gzip': () => createUnzip({ finishFlush: constants.Z_SYNC_FLUSH }),
  deflate: () => createUnzip({ finishFlush: constants.Z_SYNC_FLUSH }),
  br: () => createBrotliDecompress({ finishFlush: constants.BROTLI_OPERATION_FLUSH }),
};

/** The codings a Content-Encoding value lists, in the order they were applied, `identity` left out. */
export function contentCodings(header: string | undefined): string[] {
  if (header === undefined) return [];
  return header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

export type DecodedBody =
  | {
      body: BodySource;
      /** Bytes of the body as they came, once read; undefined when no coding was undone. */
      encodedBytes: () => number | undefined;
    }
  | { unknown: string; body: BodySource };

/**
 * The body with its codings undone (the last applied is undone first), or, for a coding there is
 * no decoder for, the bytes as they came and the coding's name: an empty body is empty in any
 * coding (HEAD, 204), a body that is not cannot be judged. Decoded bytes count against the caller's
 * cap, so a small body that inflates to gigabytes is cut like a large one.
 */
export function decodeBody(raw: BodySource, contentEncoding: string | undefined): DecodedBody {
  const codings = contentCodings(contentEncoding);
  if (codings.length === 0) return { body: raw, encodedBytes: () => undefined };
  const unknown = codings.find((c) => DECODERS[c] === undefined);
  if (unknown !== undefined) return { unknown, body: raw };
  const decoders = [...codings].reverse().map((c) => ({ coding: c, stream: DECODERS[c]!() }));
  const last = decoders[decoders.length - 1]!.stream;
  let encoded = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      encoded += chunk.length;
      done(null, chunk);
    },
  });
  // pipeline ends every stream when one fails or the last is destroyed (the caller's cap).
  pipeline([raw as unknown as Readable, counter, ...decoders.map((d) => d.stream)], () => undefined);
  let failed: { coding: string; error: Error } | undefined;
  for (const d of decoders) d.stream.once('error', (error: Error) => (failed ??= isCodingError(error) ? { coding: d.coding, error } : undefined));
  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of last) yield chunk as Buffer;
    } catch (error) {
      if (failed === undefined) throw error;
      throw Object.assign(new Error(`the body is not ${failed.coding} as its Content-Encoding (${codings.join(', ')}) says: ${failed.error.message}`), { code: UNDECODABLE_CODE });
    }
  }
  const iterator = chunks();
  return { body: Object.assign(iterator, { destroy: (err?: Error) => last.destroy(err) }), encodedBytes: () => encoded };
}

/** An error of the decoder itself (zlib's `Z_…` codes, brotli's `ERR__…`), not one passed on from the transport. */
function isCodingError(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^(Z_|ERR__)/.test(code);
}
