/**
 * The function a CommonJS module exports, imported from an ES module: Node hands over
 * `module.exports` as the default import, while the package's types describe a module object
 * with a `default`; take whichever is callable (ajv-formats, ajv's standalone code).
 */
export function callableExport<F>(imported: unknown): F {
  return ((imported as { default?: F }).default ?? imported) as F;
}
