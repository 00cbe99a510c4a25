import { setTimeout as sleep } from 'node:timers/promises';
import { describe } from 'vitest';
import { describeResponse } from '../lib/checks/json-body.ts';
import { notEnoughRows } from '../lib/checks/ledger-discovery.ts';
import { DEFAULT_WINDOW_PINNED, defaultWindowPinnedFindings, rowsAddedSince, STABLE_UNDER_GROWTH, stableUnderGrowthFindings } from '../lib/checks/ledger-growth.ts';
import { formatInstant, instantFromMs } from '../lib/checks/ledger-instant.ts';
import { pageSchemaFailures } from '../lib/checks/ledger-page-schema.ts';
import { advanceWalk, startWalk, walkExchanges, walkLedger } from '../lib/checks/ledger-walk.ts';
import { inconclusive } from '../lib/model/finding.ts';
import { LEDGER_LIMIT_MAX } from '../lib/spec-constants.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';
import { ledgerSample, pagesOf, readPool } from '../lib/suite/ledger-kit.ts';

const DAY_MS = 86_400_000;
/** Known instants the explicit walk starts from: a few pages at a third of its rows per page. */
const RECENT_INSTANTS = 15;

describe('§4.1 GET /credits/operations: walks while the ledger grows', () => {
  // > Returns a paginated raw ledger of credit operations for a time window.
  // > | next_cursor | string or null | yes | Opaque cursor for the next page. It is null when there is no further page. |
  // > When neither bound is given, the window is the last 30 days.
  requirementTest(
    [STABLE_UNDER_GROWTH, DEFAULT_WINDOW_PINNED],
    'a message sent between the first and second pages of a walk of the newest rows and of a walk of the default window',
    async (kit) => {
      const route = kit.context.profile.messages.routes[0];
      if (route === undefined) return kit.notRun('the profile names no message route, so the harness cannot add a ledger row');
      const sample = await ledgerSample(kit);
      const why = notEnoughRows(sample, 3);
      if (why !== undefined) return kit.ids.map((id) => inconclusive(id, why));
      const known = sample.known!;
      const fetch = pagesOf(kit);

      // An explicit window from a recent known instant to a day ahead: the added row falls inside it.
      const from = known.groups[Math.max(0, known.groups.length - RECENT_INSTANTS)]!.text;
      const to = formatInstant(instantFromMs(Date.now() + sample.clockOffsetMs + DAY_MS));
      const before = await walkLedger(fetch, { from, to, limit: LEDGER_LIMIT_MAX }, { maxPages: 3 });
      const explicitLimit = Math.max(1, Math.ceil(before.rows.length / 3));
      const explicit = await advanceWalk(fetch, startWalk({ from, to, limit: explicitLimit }), { maxPages: 1 });
      const defaultRows = sample.defaultWalk.rows.length;
      const defaultLimit = Math.max(1, Math.min(LEDGER_LIMIT_MAX, Math.ceil(defaultRows / 2)));
      const byDefault = await advanceWalk(fetch, startWalk({ limit: defaultLimit }), { maxPages: 1 });
      // Rows added from here on were added after both walks began.
      const snapshot = await walkLedger(fetch, { from, to, limit: LEDGER_LIMIT_MAX }, { maxPages: 3 });

      const message = await kit.client.send({ method: 'POST', path: route.path, json: route.body, token: 'primary' });
      const status = message.response?.status ?? 0;
      if (status < 200 || status > 299) return kit.ids.map((id) => inconclusive(id, `the message was not accepted: ${describeResponse(message)}`, [message]));
      // Not pacing: the server's clock must move past the added row's timestamp before the next
      // page, or a window computed again at that page could end just before it.
      await sleep(50);

      await advanceWalk(fetch, explicit, { maxPages: 30 });
      await advanceWalk(fetch, byDefault, { maxPages: 10 });
      const after = await walkLedger(fetch, { from, to, limit: LEDGER_LIMIT_MAX }, { maxPages: 3 });
      const added = rowsAddedSince(snapshot, after);
      return [
        ...stableUnderGrowthFindings(explicit, before.rows, added),
        ...defaultWindowPinnedFindings(byDefault, added),
        ...pageSchemaFailures([...walkExchanges(explicit), ...walkExchanges(byDefault)], readPool(kit)),
      ];
    },
  );
});
