import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { ServedDescription } from '../../lib/checks/openapi-served-description.ts';
import type { Exchange } from '../../lib/model/exchange.ts';
import { eachExchange } from '../../lib/report/writers/transcript.ts';
import { RecordFollower } from '../../lib/runner/record-follower.ts';

const BASE = 'http://t.invalid/v1';
const DOCUMENT = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} };

function ex(seq: number, path: string, body = ''): Exchange {
  return {
    seq,
    startedAt: '2026-01-01T00:00:00.000Z',
    request: { method: 'GET', url: `${BASE}${path}`, headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body, bodyBytes: body.length, truncated: false },
    timings: { totalMs: 1 },
  };
}

function line(exchange: Exchange): string {
  return `${JSON.stringify(exchange)}\n`;
}

/** A judge that keeps the order it was given exchanges in, and the description it was made with. */
class SeenJudge {
  readonly seqs: number[] = [];
  constructor(readonly served: ServedDescription) {}
  add(exchange: Exchange): void {
    this.seqs.push(exchange.seq);
  }
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function transcript(): string {
  const dir = mkdtempSync(join(tmpdir(), 'asi-follow-'));
  dirs.push(dir);
  return join(dir, '.transcript.jsonl');
}

function follower(file: string): { record: RecordFollower<SeenJudge>; visited: number[]; made: SeenJudge[] } {
  const visited: number[] = [];
  const made: SeenJudge[] = [];
  const record = new RecordFollower(
    file,
    BASE,
    (served) => {
      const judge = new SeenJudge(served);
      made.push(judge);
      return judge;
    },
    (e) => visited.push(e.seq),
  );
  return { record, visited, made };
}

describe('RecordFollower: the record read and judged while the run appends to it', () => {
  test('judges from the served description on, those before it first, while the file grows: the same exchanges in the same order as one pass at the end', async () => {
    const file = transcript();
    const { record, visited, made } = follower(file);
    record.start();
    appendFileSync(file, line(ex(2, '/me')) + line(ex(1, '/health')));
    const fetch = line(ex(3, '/openapi.json', JSON.stringify(DOCUMENT)));
    // A line the worker is still writing is left for the next look.
    appendFileSync(file, `\n${fetch.slice(0, 40)}`);
    await vi.waitFor(() => expect(visited).toEqual([2, 1]), { timeout: 60_000 });
    expect(made).toEqual([]);
    appendFileSync(file, fetch.slice(40) + line(ex(4, '/me')));
    await vi.waitFor(() => expect(made).toHaveLength(1), { timeout: 60_000 });
    expect(made[0]!.served).toMatchObject({ available: true, seq: 3 });
    appendFileSync(file, `not json\n${line(ex(6, '/me'))}${JSON.stringify(ex(5, '/me'))}`);
    const { judge, served } = await record.finish();
    expect(judge).toBe(made[0]);
    expect(served).toMatchObject({ available: true, seq: 3 });
    const once: number[] = [];
    await eachExchange(file, (e) => once.push(e.seq));
    expect(visited).toEqual(once);
    expect(judge.seqs).toEqual(once);
    expect(once).toEqual([2, 1, 3, 4, 6, 5]);
  });

  test('a run that fetched no description is judged at the end, with the reason there is none', async () => {
    const file = transcript();
    const { record, made } = follower(file);
    record.start();
    appendFileSync(file, line(ex(1, '/me')));
    const { judge, served } = await record.finish();
    expect(made).toEqual([judge]);
    expect(served).toEqual({ available: false, why: 'this run did not fetch /openapi.json (the openapi suite does)' });
    expect(judge.seqs).toEqual([1]);
  });

  test('what goes wrong in a look during the run is thrown by finish, never left unhandled', async () => {
    const file = transcript();
    const record = new RecordFollower(file, BASE, (served) => new SeenJudge(served), () => {
      throw new Error('a visitor that breaks');
    });
    record.start();
    appendFileSync(file, line(ex(1, '/me')));
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await expect(record.finish()).rejects.toThrow('a visitor that breaks');
  });

  test('a transcript not yet written, or never, is an empty record; stop leaves no timer', async () => {
    const file = transcript();
    const { record } = follower(file);
    record.start();
    const { judge } = await record.finish();
    expect(judge.seqs).toEqual([]);
    const other = follower(transcript()).record;
    other.start();
    other.stop();
  });
});
