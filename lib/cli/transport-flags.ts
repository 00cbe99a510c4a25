import type { TransportFlags } from '../profile/resolve-transport.ts';

/** The run command's flags for targets behind real infrastructure (node:util parseArgs specs). */
export const TRANSPORT_OPTIONS = {
  header: { type: 'string', multiple: true },
  'ca-file': { type: 'string' },
  'cert-file': { type: 'string' },
  'key-file': { type: 'string' },
} as const;

export interface TransportFlagValues {
  header?: string[];
  'ca-file'?: string;
  'cert-file'?: string;
  'key-file'?: string;
}

export function transportFlags(values: TransportFlagValues): TransportFlags {
  return {
    headers: values.header ?? [],
    ...(values['ca-file'] === undefined ? {} : { caFile: values['ca-file'] }),
    ...(values['cert-file'] === undefined ? {} : { certFile: values['cert-file'] }),
    ...(values['key-file'] === undefined ? {} : { keyFile: values['key-file'] }),
  };
}
