import { IN_TOTO_PAYLOAD_TYPE, MANIFEST_NAME } from './bundle-layout.ts';
import { isEnvelope, type DsseEnvelope } from './dsse.ts';
import type { OpenedBundle } from './open-bundle.ts';
import { parseStatement, type Statement } from './statement.ts';

/** manifest.json read: the Statement, the envelope around it when signed, or why it cannot be read. */
export type BundledManifest = { statement: Statement; envelope?: DsseEnvelope } | { problem: string };

const manifests = new WeakMap<OpenedBundle, BundledManifest>();

function read(bytes: Buffer): BundledManifest {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (err) {
    return { problem: `is not JSON (${(err as Error).message})` };
  }
  let envelope: DsseEnvelope | undefined;
  if (isEnvelope(value)) {
    envelope = value;
    if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE) return { problem: `is a DSSE envelope of ${JSON.stringify(envelope.payloadType)}; expected ${IN_TOTO_PAYLOAD_TYPE}` };
    try {
      value = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as unknown;
    } catch (err) {
      return { problem: `is a DSSE envelope whose payload is not JSON (${(err as Error).message})` };
    }
  }
  const statement = parseStatement(value);
  if (typeof statement === 'string') return { problem: `${envelope === undefined ? '' : 'holds a payload that '}${statement}` };
  return envelope === undefined ? { statement } : { statement, envelope };
}

/** The bundle's manifest, read once. */
export function bundledManifest(bundle: OpenedBundle): BundledManifest {
  let known = manifests.get(bundle);
  if (known === undefined) {
    const bytes = bundle.files.get(MANIFEST_NAME);
    known = bytes === undefined ? { problem: 'is missing' } : read(bytes);
    manifests.set(bundle, known);
  }
  return known;
}
