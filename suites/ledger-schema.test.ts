import { describe } from 'vitest';
import { NEXT_CURSOR_PRESENT, PAGE_SCHEMA, pageSchemaFindings, RATE_LIMIT_HEADERS, ROW_SCHEMA, TIMESTAMP_UTC_Z } from '../lib/checks/ledger-page-schema.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';
import { ledgerSample, only, readPool } from '../lib/suite/ledger-kit.ts';

// Every page below is one discovery fetched with limit=200: the first pages of the last 30 days
// written with bounds and of the default window (all of them when the ledger is small), and the
// recent windows of the time search. Other ledger suites report schema failures of the pages they
// fetch for their own purposes too.
const WHAT = 'every page discovery read (the last 30 days, a recent window, the default window; limit=200)';

describe('§2.1 Credit operation (ledger row)', () => {
  // > | operation_uuid | string | yes | ... | credits | number | yes | ... | metadata | object | yes | Free-form object. |
  requirementTest(ROW_SCHEMA, `the rows of ${WHAT}`, async (kit) => only(ROW_SCHEMA, pageSchemaFindings((await ledgerSample(kit)).exchanges, readPool(kit))));

  // > | timestamp | string, date-time | yes | Always output as full ISO 8601 with a trailing `Z`. |
  requirementTest(TIMESTAMP_UTC_Z, `the timestamp of each row of ${WHAT}`, async (kit) =>
    only(TIMESTAMP_UTC_Z, pageSchemaFindings((await ledgerSample(kit)).exchanges, readPool(kit))),
  );
});

describe('§2.2 Credit operations page (CreditsOperations)', () => {
  // > | operations | array of credit operation | yes | Rows of the requested window. |
  requirementTest(PAGE_SCHEMA, WHAT, async (kit) => only(PAGE_SCHEMA, pageSchemaFindings((await ledgerSample(kit)).exchanges, readPool(kit))));

  // > | next_cursor | string or null | yes | Opaque cursor for the next page. It is null when there is no further page. |
  requirementTest(NEXT_CURSOR_PRESENT, `next_cursor of ${WHAT}`, async (kit) =>
    only(NEXT_CURSOR_PRESENT, pageSchemaFindings((await ledgerSample(kit)).exchanges, readPool(kit))),
  );
});

describe('§4 Endpoints: rate-limit headers on the ledger', () => {
  // > Every authenticated response carries the rate-limit headers (section 8).
  requirementTest(RATE_LIMIT_HEADERS, `X-RateLimit-* headers of ${WHAT}`, async (kit) =>
    only(RATE_LIMIT_HEADERS, pageSchemaFindings((await ledgerSample(kit)).exchanges, readPool(kit))),
  );
});
