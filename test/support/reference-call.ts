import type { RunningReference } from '../../lib/reference/server.ts';

/** What a reference answered, read whole. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One request to a reference started by a test, with a demo token of `role` (null: none). */
export async function callReference(ref: RunningReference, method: string, path: string, role: string | null = 'primary', body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (role !== null) headers['authorization'] = `Bearer ${ref.tokens[role]}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${ref.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
}
