import { setTimeout as sleep } from 'node:timers/promises';
import { describe } from 'vitest';
import { describeResponse } from '../lib/checks/json-body.ts';
import { findRecentWindow, notEnoughRows, pagesFor } from '../lib/checks/ledger-discovery.ts';
import { DEFAULT_WINDOW_PINNED, defaultWindowPinnedFindings, NO_REPEAT_UNDER_GROWTH, rowsAddedSince, STABLE_UNDER_GROWTH, stableUnderGrowthFindings } from '../lib/checks/ledger-growth.ts';
import { pageSchemaFailures } from '../lib/checks/ledger-page-schema.ts';
import { advanceWalk, isComplete, startWalk, walkExchanges, walkLedger } from '../lib/checks/ledger-walk.ts';
import { inconclusive } from '../lib/model/finding.ts';
import { LEDGER_LIMIT_MAX } from '../lib/spec-constants.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';
import { ledgerSample, pagesOf, readPool } from '../lib/suite/ledger-kit.ts';

/** Pages of the default window read after the message: enough to reach its end when it is small. */
const DEFAULT_WALK_PAGES = 4;

describe('§4.1 GET /credits/operations: walks while the ledger grows', () => {
  // > Returns a paginated raw ledger of credit operations for a time window.
  // > | next_cursor | string or null | yes | Opaque cursor for the next page. It is null when there is no further page. |
  // > When neither bound is given, the window is the last 30 days.
  requirementTest(
    [STABLE_UNDER_GROWTH, NO_REPEAT_UNDER_GROWTH, DEFAULT_WINDOW_PINNED],
    'a message sent between the first and second pages of a walk of the newest rows and of a walk of the default window',
    async (kit) => {
      const route = kit.context.profile.messages.routes[0];
      if (route === undefined) return kit.notRun('the profile names no message route, so the harness cannot add a ledger row');
      const sample = await ledgerSample(kit);
      const why = notEnoughRows(sample, 3);
      if (why !== undefined) return kit.ids.map((id) => inconclusive(id, why));
      const fetch = pagesOf(kit);

      // The newest rows as the ledger stands now, in a window ending a day ahead: the added row
      // falls inside it. Walked whole first: the rows it held when the walk under test began.
      const before = await findRecentWindow(fetch, sample);
      if (before === undefined || before.rows.length < 3) {
        return kit.ids.map((id) => inconclusive(id, 'no recent window of at least 3 rows could be walked to its end', before === undefined ? [] : walkExchanges(before)));
      }
      const query = { from: before.query.from, to: before.query.to };
      const explicitLimit = Math.max(1, Math.ceil(before.rows.length / 3));
      const explicit = await advanceWalk(fetch, startWalk({ ...query, limit: explicitLimit }), { maxPages: 1 });
      // The default window in two pages or more when it is small; its first pages when it is not.
      const defaultRows = sample.defaultWalk.rows.length;
      const defaultLimit = isComplete(sample.defaultWalk) ? Math.max(1, Math.min(LEDGER_LIMIT_MAX, Math.ceil(defaultRows / 2))) : LEDGER_LIMIT_MAX;
      const byDefault = await advanceWalk(fetch, startWalk({ limit: defaultLimit }), { maxPages: 1 });
      // Rows added from here on were added after both walks began.
      const snapshot = await walkLedger(fetch, { ...query, limit: LEDGER_LIMIT_MAX }, { maxPages: pagesFor(sample, before.rows.length + 50, LEDGER_LIMIT_MAX) });

      const message = await kit.client.send({ method: 'POST', path: route.path, json: route.body, token: 'primary' });
      const status = message.response?.status ?? 0;
      if (status < 200 || status > 299) return kit.ids.map((id) => inconclusive(id, `the message was not accepted: ${describeResponse(message)}`, [message]));
      // Not pacing: the server's clock must move past the added row's timestamp before the next
      // page, or a window computed again at that page could end just before it.
      await sleep(50);

      await advanceWalk(fetch, explicit, { maxPages: pagesFor(sample, before.rows.length + 50, explicitLimit) });
      await advanceWalk(fetch, byDefault, { maxPages: isComplete(sample.defaultWalk) ? pagesFor(sample, defaultRows + 50, defaultLimit) : DEFAULT_WALK_PAGES });
      const after = await walkLedger(fetch, { ...query, limit: LEDGER_LIMIT_MAX }, { maxPages: pagesFor(sample, before.rows.length + 100, LEDGER_LIMIT_MAX) });
      const added = rowsAddedSince(snapshot, after);
      return [
        ...stableUnderGrowthFindings(explicit, before.rows, added),
        ...defaultWindowPinnedFindings(byDefault, added),
        ...pageSchemaFailures([...walkExchanges(explicit), ...walkExchanges(byDefault)], readPool(kit)),
      ];
    },
  );
});
