import { createHash, sign, verify, type KeyObject } from 'node:crypto';

/**
 * DSSE (Dead Simple Signing Envelope, github.com/secure-systems-lab/dsse, the envelope in-toto
 * attestations travel in): the signature is over PAE(type, body), never over the JSON around it,
 * so that nothing outside the payload can be changed under a valid signature.
 */
export interface DsseSignature {
  keyid: string;
  sig: string;
}

export interface DsseEnvelope {
  payloadType: string;
  /** The payload, base64. */
  payload: string;
  signatures: DsseSignature[];
}

/** > PAE(type, body) = "DSSEv1" + SP + LEN(type) + SP + type + SP + LEN(body) + SP + body; LEN in ASCII decimal bytes. */
export function pae(payloadType: string, body: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${body.length} `), body]);
}

/** The key id this harness gives a public key: SHA-256 of its SubjectPublicKeyInfo (DER), hex. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex');
}

/** `body` signed with an Ed25519 key, in an envelope of one signature. */
export function signEnvelope(payloadType: string, body: Buffer, privateKey: KeyObject, keyid: string): DsseEnvelope {
  // Ed25519 hashes internally: node:crypto takes no digest name for it.
  const sig = sign(null, pae(payloadType, body), privateKey);
  return { payloadType, payload: body.toString('base64'), signatures: [{ keyid, sig: sig.toString('base64') }] };
}

/** True when one of the envelope's signatures is `publicKey`'s over its payload. */
export function envelopeVerifies(envelope: DsseEnvelope, publicKey: KeyObject): boolean {
  const body = Buffer.from(envelope.payload, 'base64');
  const message = pae(envelope.payloadType, body);
  return envelope.signatures.some((s) => {
    try {
      return verify(null, message, publicKey, Buffer.from(s.sig, 'base64'));
    } catch {
      return false;
    }
  });
}

/** True when `value` has the shape of a DSSE envelope (a signed manifest rather than a bare Statement). */
export function isEnvelope(value: unknown): value is DsseEnvelope {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v['payloadType'] === 'string' &&
    typeof v['payload'] === 'string' &&
    Array.isArray(v['signatures']) &&
    v['signatures'].every((s: unknown) => typeof s === 'object' && s !== null && typeof (s as DsseSignature).sig === 'string' && typeof ((s as DsseSignature).keyid ?? '') === 'string')
  );
}
