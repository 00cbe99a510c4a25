// A small ASI v1 client that follows every rule the spec gives clients; `asi-conformance client`
// grades it. ASI_CLIENT_DEFECT breaks one rule, to show the grading catches it:
//   retry-400           sends a request answered `permanent` once more, unchanged
//   ignore-retry-after  retries a 429 after 100 ms, whatever Retry-After says
//   alter-retry         retries a 429 with a changed query (adds retry=1)
//   no-backoff          waits exactly Retry-After however often the same request is refused
//   reencode-cursor     pastes next_cursor into the query unencoded
//   token-in-query      sends the token in the query too (access_token=)
//   fixed-transient     retries a transient error every 400 ms, with no backoff
//   match-wording       retries a transient error only when its message says "retry"
//   fast-poll           polls an async job every 100 ms
//   no-slow-down        keeps its pace when X-RateLimit-Remaining runs low
//   lf-only-sse         splits an event stream on LF only (a CR-only stream never ends an event)
// TypeScript on undici (a dependency of asi-conformance). client.mjs beside it is what tsc emits
// from this file (`npx tsc -p examples/reference-client`), so that it runs on Node 20 as is; a
// self-test keeps the two the same.
import { writeFileSync } from 'node:fs';
import { fetch } from 'undici';
const baseUrl = process.env['ASI_BASE_URL'];
const token = process.env['ASI_TOKEN'];
const scenario = process.env['ASI_SCENARIO'];
const resultFile = process.env['ASI_RESULT_FILE'];
const defect = process.env['ASI_CLIENT_DEFECT'] ?? '';
if (!baseUrl || !token) {
    console.error('client.mjs: ASI_BASE_URL and ASI_TOKEN must be set');
    process.exit(2);
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// Defect fixed-transient's delay: well above how late a timer fires on a loaded machine, so
// that a fixed delay never reads as a growing one.
const FIXED_TRANSIENT_MS = 400;
// The backoff's first wait, doubling: a retry held up half a second on a loaded machine still
// reads as a wait that grows.
const TRANSIENT_FIRST_MS = 500;
/** The URL of a route with its query; the cursor, like every value, percent-encoded by URLSearchParams. */
function urlOf(path, query) {
    const url = new URL(`${baseUrl}${path}`);
    for (const [name, value] of Object.entries(query)) {
        if (name === 'cursor' && defect === 'reencode-cursor')
            continue;
        url.searchParams.set(name, value);
    }
    if (defect === 'token-in-query')
        url.searchParams.set('access_token', token);
    let text = url.toString();
    if (defect === 'reencode-cursor' && query['cursor'] !== undefined)
        text += `${url.search === '' ? '?' : '&'}cursor=${query['cursor']}`;
    return text;
}
class PermanentError extends Error {
}
/**
 * One request, handled by the error's category and never its message: permanent → give up (fix the
 * request), rate_limited → wait Retry-After (times a growing multiplier when refused again) and
 * send the same request, transient → retry with backoff.
 */
async function call(method, path, query = {}, payload) {
    let url = urlOf(path, query);
    let refusals = 0;
    let failures = 0;
    let permanentRetried = false;
    for (;;) {
        const headers = { authorization: `Bearer ${token}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) };
        const res = await fetch(url, { method, headers, ...(payload === undefined ? {} : { body: JSON.stringify(payload) }) });
        const text = await res.text();
        await slowDownWhenLow(res);
        let body;
        try {
            body = JSON.parse(text);
        }
        catch {
            body = undefined;
        }
        if (res.ok)
            return body;
        const envelope = body;
        const category = envelope?.error?.category;
        if (category === 'rate_limited' && refusals < 20) {
            const retryAfterS = Number(res.headers.get('retry-after') ?? '1');
            const multiplier = defect === 'no-backoff' ? 1 : 1.5 ** refusals;
            const waitMs = defect === 'ignore-retry-after' ? 100 : retryAfterS * 1000 * multiplier;
            refusals += 1;
            await sleep(waitMs);
            if (defect === 'alter-retry')
                url = urlOf(path, { ...query, retry: String(refusals) });
            continue;
        }
        const wordingSaysRetry = /retry/i.test(envelope?.error?.message ?? '');
        if (category === 'transient' && failures < 3 && (defect !== 'match-wording' || wordingSaysRetry)) {
            // > `transient`: retry with backoff.
            await sleep(defect === 'fixed-transient' ? FIXED_TRANSIENT_MS : TRANSIENT_FIRST_MS * 2 ** failures);
            failures += 1;
            continue;
        }
        if (category === 'permanent' && defect === 'retry-400' && !permanentRetried) {
            permanentRetried = true;
            continue;
        }
        throw new PermanentError(`${method} ${path}: HTTP ${res.status} ${envelope?.error?.code ?? ''} (${category ?? 'no category'})`);
    }
}
/** > slow down when `X-RateLimit-Remaining` falls below 10% of the limit */
async function slowDownWhenLow(res) {
    const remaining = Number(res.headers.get('x-ratelimit-remaining'));
    const limit = Number(res.headers.get('x-ratelimit-limit'));
    if (defect !== 'no-slow-down' && res.ok && limit > 0 && res.headers.has('x-ratelimit-remaining') && remaining < limit / 10)
        await sleep(300);
}
const MESSAGE_PATH = '/deal-agents/agt_demo/messages';
const QUESTION = 'How is ACME-7 doing?';
/** The assistant's final text of a turn: the last message's content (message fields are the reference's). */
const finalText = (turn) => turn.messages.at(-1)?.content ?? '';
/** > poll async jobs with a backoff starting at 1 second and doubling up to 5 seconds */
async function slowJob() {
    const job = await call('POST', MESSAGE_PATH, {}, { message: QUESTION, async: true });
    for (let poll = 0;; poll++) {
        await sleep(defect === 'fast-poll' ? 100 : Math.min(5000, 1000 * 2 ** poll));
        const view = await call('GET', `/message-jobs/${encodeURIComponent(job.job_id)}`);
        if (view.status === 'completed') {
            console.log(`job done: ${finalText(view.result)}`);
            return;
        }
        if (view.status === 'failed')
            throw new Error(`job ${job.job_id} failed`);
    }
}
/**
 * The turn as an event stream, read by the HTML grammar: lines end in CRLF, LF or CR (a CR at the
 * end of a chunk may be the first half of a CRLF), `:` lines are comments, `data:` lines join with
 * LF, a blank line dispatches. Writes the final text, or `error <code>`, to ASI_RESULT_FILE.
 */
async function streamTurn() {
    const res = await fetch(`${baseUrl}${MESSAGE_PATH}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', 'content-type': 'application/json' },
        body: JSON.stringify({ message: QUESTION, stream: true }),
    });
    let outcome = 'incomplete';
    let buffer = '';
    let event = { name: 'message', data: [] };
    const lineEnd = defect === 'lf-only-sse' ? /\n/ : /\r\n|\r|\n/;
    const take = (line) => {
        if (line === '') {
            if (event.data.length > 0) {
                const data = JSON.parse(event.data.join('\n'));
                if (event.name === 'done')
                    outcome = finalText(data);
                if (event.name === 'error')
                    outcome = `error ${data.code}`;
            }
            event = { name: 'message', data: [] };
            return;
        }
        if (line.startsWith(':'))
            return;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event')
            event.name = value;
        if (field === 'data')
            event.data.push(value);
    };
    const decoder = new TextDecoder();
    if (res.body === null)
        throw new Error('the stream has no body');
    for await (const chunk of res.body) {
        buffer += decoder.decode(chunk, { stream: true });
        for (;;) {
            const match = lineEnd.exec(buffer);
            // A CR ending the buffer waits for the next chunk: it may be a CRLF cut in two.
            if (match === null || (match[0] === '\r' && match.index === buffer.length - 1))
                break;
            take(buffer.slice(0, match.index).replace(/^\uFEFF/, ''));
            buffer = buffer.slice(match.index + match[0].length);
        }
    }
    if (buffer.endsWith('\r'))
        take(buffer.slice(0, -1));
    if (resultFile)
        writeFileSync(resultFile, `${outcome}\n`);
    console.log(`stream: ${outcome}`);
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
    if (scenario === 'paging' || scenario === 'slow-down')
        return readLedger();
    if (scenario === 'slow-job')
        return slowJob();
    if (scenario === 'streams')
        return streamTurn();
    if (scenario === 'rate-limited' || scenario === 'transient') {
        await call('GET', '/credits/operations', { limit: '10' });
        console.log('ledger read after the pool recovered');
        return;
    }
    if (scenario === 'permanent' || scenario === 'wording') {
        const ledger = scenario === 'wording' ? [['/credits/operations', { limit: '10' }]] : [];
        const refused = ['/credits/operations', { from: '2026-02-01', to: '2026-01-01' }];
        const second = scenario === 'wording' ? [] : [['/me', {}]];
        for (const [path, query] of [...ledger, refused, ...second]) {
            try {
                await call('GET', path, query);
            }
            catch (err) {
                if (!(err instanceof PermanentError))
                    throw err;
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
