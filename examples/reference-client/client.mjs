#!/usr/bin/env node
// A small ASI v1 client that follows every rule the spec gives clients; `asi-conformance client`
// grades it. ASI_CLIENT_DEFECT breaks one rule, to show the grading catches it:
//   retry-400           sends a request answered `permanent` once more, unchanged
//   ignore-retry-after  retries a 429 after 100 ms, whatever Retry-After says
//   alter-retry         retries a 429 with a changed query (adds retry=1)
//   no-backoff          waits exactly Retry-After however often the same request is refused
//   reencode-cursor     pastes next_cursor into the query unencoded
//   token-in-query      sends the token in the query too (access_token=)
// Plain Node 20 (global fetch), no dependencies: runs from a fresh clone as is.

const baseUrl = process.env.ASI_BASE_URL;
const token = process.env.ASI_TOKEN;
const scenario = process.env.ASI_SCENARIO;
const defect = process.env.ASI_CLIENT_DEFECT ?? '';
if (!baseUrl || !token) {
  console.error('client.mjs: ASI_BASE_URL and ASI_TOKEN must be set');
  process.exit(2);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The URL of a route with its query; the cursor, like every value, percent-encoded by URLSearchParams. */
function urlOf(path, query) {
  const url = new URL(`${baseUrl}${path}`);
  for (const [name, value] of Object.entries(query)) {
    if (name === 'cursor' && defect === 'reencode-cursor') continue;
    url.searchParams.set(name, value);
  }
  if (defect === 'token-in-query') url.searchParams.set('access_token', token);
  let text = url.toString();
  if (defect === 'reencode-cursor' && query.cursor !== undefined) text += `${url.search === '' ? '?' : '&'}cursor=${query.cursor}`;
  return text;
}

class PermanentError extends Error {}

/**
 * One request, handled by the error's category and never its message: permanent → give up (fix the
 * request), rate_limited → wait Retry-After (times a growing multiplier when refused again) and
 * send the same request, transient → retry with backoff.
 */
async function call(method, path, query = {}) {
  let url = urlOf(path, query);
  let refusals = 0;
  let failures = 0;
  let permanentRetried = false;
  for (;;) {
    const res = await fetch(url, { method, headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (res.ok) return body;
    const category = body?.error?.category;
    if (category === 'rate_limited' && refusals < 20) {
      const retryAfterS = Number(res.headers.get('retry-after') ?? '1');
      const multiplier = defect === 'no-backoff' ? 1 : 1.5 ** refusals;
      const waitMs = defect === 'ignore-retry-after' ? 100 : retryAfterS * 1000 * multiplier;
      refusals += 1;
      await sleep(waitMs);
      if (defect === 'alter-retry') url = urlOf(path, { ...query, retry: String(refusals) });
      continue;
    }
    if (category === 'transient' && failures < 3) {
      await sleep(1000 * 2 ** failures++);
      continue;
    }
    if (category === 'permanent' && defect === 'retry-400' && !permanentRetried) {
      permanentRetried = true;
      continue;
    }
    throw new PermanentError(`${method} ${path}: HTTP ${res.status} ${body?.error?.code ?? ''} (${category ?? 'no category'})`);
  }
}

async function readLedger() {
  let cursor;
  let rows = 0;
  do {
    const page = await call('GET', '/credits/operations', cursor === undefined ? { limit: '4' } : { limit: '4', cursor });
    rows += page.operations.length;
    // > Pass back exactly the value returned earlier in `next_cursor`.
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  console.log(`read ${rows} ledger rows`);
}

async function main() {
  if (scenario === 'paging') return readLedger();
  if (scenario === 'rate-limited') {
    await call('GET', '/credits/operations', { limit: '10' });
    return console.log('ledger read after the pool recovered');
  }
  if (scenario === 'permanent') {
    for (const [path, query] of [['/credits/operations', { from: '2026-02-01', to: '2026-01-01' }], ['/me', {}]]) {
      try {
        await call('GET', path, query);
      } catch (err) {
        if (!(err instanceof PermanentError)) throw err;
        console.log(`gave up: ${err.message}`);
      }
    }
    return;
  }
  console.error(`client.mjs: unknown ASI_SCENARIO ${JSON.stringify(scenario)}`);
  process.exitCode = 2;
}

main().catch((err) => {
  console.error(`client.mjs: ${err.message}`);
  process.exitCode = 1;
});
