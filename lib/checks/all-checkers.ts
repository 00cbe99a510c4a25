/**
 * Every checker module, loaded for its judged checkers to register (lib/checks/judged.ts):
 * offline verification looks a recorded judgement's checker up by name. A self-test keeps this
 * list complete.
 */
import './conversation-fault.ts';
import './conversation-job.ts';
import './conversation-rest.ts';
import './conversation-stream.ts';
import './disbelieved-headers.ts';
import './error-envelope.ts';
import './generated-message.ts';
import './ledger-acceptance.ts';
import './ledger-additivity.ts';
import './ledger-bound-forms.ts';
import './ledger-cursor-findings.ts';
import './ledger-default-window.ts';
import './ledger-feature-filter.ts';
import './ledger-growth.ts';
import './ledger-page-schema.ts';
import './ledger-query-model.ts';
import './ledger-walk-findings.ts';
import './ledger-window-rows.ts';
import './openapi-agreement.ts';
import './openapi-documents.ts';
import './openapi-ledger-operation.ts';
import './openapi-validity.ts';
import './openapi-version.ts';
import './pool-headers.ts';
import './property-outcome.ts';
import './rate-limit-counting.ts';
import './rate-limit-headers.ts';
import './rate-limit-ledger.ts';
import './rate-limit-limiter-down.ts';
import './rate-limit-observations.ts';
import './rate-limit-refusal.ts';
import './rate-limit-retry.ts';
import './sse-delivery.ts';
import './sse-framing-lint.ts';
import './sse-grammar.ts';
import './success-status.ts';
import './token-points.ts';
import './token-refusal.ts';
