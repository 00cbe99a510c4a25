import { describe } from 'vitest';
import { altersEveryReading, applyCursorMutation, cursorMutation } from '../lib/arbitraries/cursor-mutation.ts';
import { garbageCursor } from '../lib/arbitraries/garbage-cursor.ts';
import { refusalFindings, unissuedCursorFindings } from '../lib/checks/ledger-acceptance.ts';
import { CURSOR_REPLAY_STABLE, CURSOR_WORKSPACE_BOUND, disjointFindings, foreignCursorFindings, replayFindings, WORKSPACES_DISJOINT } from '../lib/checks/ledger-cursor-findings.ts';
import { notEnoughRows, pagesFor, type LedgerSample } from '../lib/checks/ledger-discovery.ts';
import { formatInstant } from '../lib/checks/ledger-instant.ts';
import { type KnownRows } from '../lib/checks/ledger-known-rows.ts';
import { readPage } from '../lib/checks/ledger-page.ts';
import { walkLedger, type LedgerQuery } from '../lib/checks/ledger-walk.ts';
import { CURSOR_BYTE_EXACT, cursorsAcceptedFinding } from '../lib/checks/ledger-walk-findings.ts';
import { inconclusive, type Finding } from '../lib/model/finding.ts';
import { LEDGER_LIMIT_MAX } from '../lib/spec-constants.ts';
import { checkProperty } from '../lib/suite/property.ts';
import { requirementTest, type TestKit } from '../lib/suite/requirement-test.ts';
import { ledgerSample, pagesOf } from '../lib/suite/ledger-kit.ts';

const CURSOR_GARBAGE = 'ledger/4.1/cursor-garbage-400';
const CURSOR_TAMPER = 'ledger/4.1/cursor-tamper-400';
const OTHER = 'other_workspace';
/** Rows of the other workspace's default window read at most. */
const OTHER_ROWS = 400;

async function knownRows(kit: TestKit): Promise<KnownRows | Finding[]> {
  const sample = await ledgerSample(kit);
  const why = notEnoughRows(sample, 5);
  return why === undefined ? sample.known! : kit.ids.map((id) => inconclusive(id, why));
}

/** Group indices of a window of a few known rows starting a share of the way through the known instants. */
function spanAt(known: KnownRows, share: number, span = 4): { start: number; end: number } {
  const count = known.groups.length;
  const start = Math.min(count - 2, Math.floor(share * count));
  return { start, end: Math.min(count - 1, start + span) };
}

function windowAt(known: KnownRows, share: number, span = 4): LedgerQuery {
  const { start, end } = spanAt(known, share, span);
  return { from: known.groups[start]!.text, to: known.groups[end]!.text };
}

/** Every row key the primary token has seen. */
function primaryKeys(sample: LedgerSample): Set<string> {
  return new Set([...sample.defaultWalk.rows, ...sample.explicitWalk.rows, ...(sample.knownWalk?.rows ?? [])].map((r) => r.key));
}

describe('§4.1 GET /credits/operations: the cursor', () => {
  // > | cursor | string | Opaque. | Pass back exactly the value returned earlier in `next_cursor`. |
  requirementTest(CURSOR_BYTE_EXACT, 'each next_cursor passed back percent-encoded byte for byte, limit=1 for three pages, and in the discovery walks', async (kit) => {
    const sample = await ledgerSample(kit);
    const walks = new Set([sample.explicitWalk, sample.defaultWalk, ...(sample.knownWalk === undefined ? [] : [sample.knownWalk])]);
    const discovered = [...walks].filter((w) => w.cursors.length > 0).map(cursorsAcceptedFinding);
    const known = await knownRows(kit);
    if (Array.isArray(known)) return [...discovered, ...known];
    const walk = await walkLedger(pagesOf(kit), { ...windowAt(known, 0.5), limit: 1 }, { maxPages: 3 });
    return [...discovered, cursorsAcceptedFinding(walk)];
  });

  // > Pass back exactly the value returned earlier in `next_cursor`.
  // > - `transient`: retry with backoff.
  requirementTest(CURSOR_REPLAY_STABLE, 'the cursor of a first page passed twice, for two windows', async (kit) => {
    const known = await knownRows(kit);
    if (Array.isArray(known)) return known;
    const fetch = pagesOf(kit);
    const findings: Finding[] = [];
    for (const share of [0.25, 0.75]) {
      const query = { ...windowAt(known, share), limit: 2 };
      const cursor = readPage(await fetch(query, undefined)).nextCursor;
      if (typeof cursor !== 'string') continue;
      findings.push(...replayFindings(readPage(await fetch(query, cursor)), readPage(await fetch(query, cursor))));
    }
    return findings.length > 0 ? findings : [inconclusive(CURSOR_REPLAY_STABLE, 'no first page returned a cursor')];
  });

  // > | cursor | string | Opaque. | Pass back exactly the value returned earlier in `next_cursor`. |
  // > | 400 | Error envelope (validation failed). |
  requirementTest(CURSOR_GARBAGE, 'cursors the server never returned, with a valid window', async (kit) => {
    const sample = await ledgerSample(kit);
    const { known } = sample;
    const fetch = pagesOf(kit);
    // No rows needed: without known rows the last 30 days serve.
    const span = known === undefined || known.groups.length < 5 ? undefined : spanAt(known, 0.5);
    const window =
      span === undefined || known === undefined
        ? { from: sample.explicitFrom, to: sample.explicitTo }
        : { from: known.groups[span.start]!.instant, to: known.groups[span.end]!.instant };
    const query = { from: formatInstant(window.from), to: formatInstant(window.to), limit: 2 };
    return checkProperty(CURSOR_GARBAGE, garbageCursor(), async (cursor) => unissuedCursorFindings(CURSOR_GARBAGE, await fetch(query, cursor), window), {
      numRuns: 6,
      maxShrinkRequests: 10,
      independent: true,
    });
  });

  // > The cursor must not be interpreted or altered by the client.
  requirementTest(CURSOR_TAMPER, 'a returned cursor cut, extended, or with one character changed', async (kit) => {
    const known = await knownRows(kit);
    if (Array.isArray(known)) return known;
    const fetch = pagesOf(kit);
    const query = { ...windowAt(known, 0.4), limit: 2 };
    const cursor = readPage(await fetch(query, undefined)).nextCursor;
    if (typeof cursor !== 'string') return [inconclusive(CURSOR_TAMPER, 'the first page returned no cursor to alter')];
    return checkProperty(
      CURSOR_TAMPER,
      cursorMutation(),
      async (m) => {
        const altered = applyCursorMutation(cursor, m);
        // A change that leaves the cursor's bytes as they were under some common reading is not tampering.
        return altersEveryReading(cursor, altered) ? refusalFindings(CURSOR_TAMPER, await fetch(query, altered)) : [];
      },
      { numRuns: 6, maxShrinkRequests: 10, independent: true },
    );
  });
});

describe('§4.1 GET /credits/operations: one ledger per workspace', () => {
  // > | Credits | Workspace credit usage and limit state. |
  requirementTest(CURSOR_WORKSPACE_BOUND, "a cursor of the primary token's workspace passed with the other_workspace token", async (kit) => {
    if (!kit.client.hasToken(OTHER)) return kit.noToken(OTHER);
    const known = await knownRows(kit);
    if (Array.isArray(known)) return known;
    const query = { ...windowAt(known, 0.6), limit: 2 };
    const cursor = readPage(await pagesOf(kit)(query, undefined)).nextCursor;
    if (typeof cursor !== 'string') return [inconclusive(CURSOR_WORKSPACE_BOUND, 'the first page returned no cursor')];
    const exchange = await pagesOf(kit, OTHER)(query, cursor);
    return foreignCursorFindings(exchange, readPage(exchange), primaryKeys(await ledgerSample(kit)));
  });

  // > | Credits | Workspace credit usage and limit state. |
  requirementTest(WORKSPACES_DISJOINT, 'the default window of the other_workspace token against every row the primary token saw', async (kit) => {
    if (!kit.client.hasToken(OTHER)) return kit.noToken(OTHER);
    const sample = await ledgerSample(kit);
    // Its first pages when it is busy: any row of the primary token's among them fails.
    const walk = await walkLedger(pagesOf(kit, OTHER), { limit: LEDGER_LIMIT_MAX }, { maxPages: pagesFor(sample, OTHER_ROWS, LEDGER_LIMIT_MAX), maxRows: OTHER_ROWS });
    return disjointFindings(walk, primaryKeys(sample));
  });
});
