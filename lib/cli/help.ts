import { REPORT_FORMATS } from '../report/report-formats.ts';

export const MAIN_HELP = `asi-conformance: conformance harness for the Agents Service Interface v1

Usage
  asi-conformance run [options]        certify a target (default: the embedded reference)
  asi-conformance serve [options]      run the reference implementation standalone
  asi-conformance list [options]       print the requirement catalogue
  asi-conformance calibrate [options]  prove every check fails on its reference defect
  asi-conformance diff OLD.json NEW.json
                                       compare two reports: new failures, fixed, codes gone (exit 1 on regression)
  asi-conformance fault NAME on|off --base-url URL
                                       switch a fault of a standalone reference (profile hooks)
  asi-conformance verify BUNDLE        check a run's certification bundle offline: digests, signature,
                                       every verdict derived again from its evidence
  asi-conformance keygen --out DIR     write an Ed25519 key pair for signing bundles (run --sign-key)
  asi-conformance badge BUNDLE         write an SVG badge from a bundle that verifies
  asi-conformance matrix FILE          certify several implementations side by side (targets.yaml): one
                                       page, matrix.html, with requirements as rows and a column each
  asi-conformance matrix merge DIR...  the same page from bundles made elsewhere (CI jobs), each verified
  asi-conformance replay BUNDLE --only ID --base-url URL
                                       send a requirement's recorded requests again, then and now
  asi-conformance client [options] -- COMMAND...
                                       grade a client (SDK, integration): run it against scripted servers
                                       and judge what it sent by the spec's rules for clients
  asi-conformance --version            print the version (-v)
  asi-conformance --help               this text (-h)

Start here
  npm start                            certify the embedded reference; reports land in reports/<run-id>/
  export ASI_TOKEN=...                 then point it at your server:
  asi-conformance run --base-url https://api.example.com/v1
  asi-conformance run --config config/example.yaml   (all options: see config/example.yaml)

Exit codes
  0 conformant (or a partial run in which nothing failed)   1 not conformant
  2 usage, profile, token or base_url error                  3 unreachable, or incomplete (a MUST not judged)

Run 'asi-conformance <command> --help' for a command's options.`;

export const RUN_HELP = `asi-conformance run: certify an ASI v1 implementation

Usage
  asi-conformance run [--config FILE] [--base-url URL] [options]

Target (with neither, the embedded reference is started on 127.0.0.1 and certified)
  --config FILE        target profile (YAML; schema config/profile.schema.json, example config/example.yaml)
  --base-url URL       the target's base_url, ending in /v1; overrides the profile's. Without --config the
                       tokens come from ASI_TOKEN (required), ASI_TOKEN_2, ASI_TOKEN_WS2, ASI_TOKEN_REVOKED,
                       ASI_TOKEN_EXPIRED; message routes and fault hooks need a profile.
  --label TEXT         name of the implementation under test, shown in every report (profile: implementation.label);
                       with --base-url or --config only: the embedded reference is no implementation of yours
  --impl-version TEXT  its version or build (profile: implementation.version); as --label, a target's only
  --defect NAME        with neither --config nor --base-url: switch this defect (or variant) on in the
  --variant NAME       embedded reference (repeatable; 'serve --list-switches' lists them): a demonstration,
                       or a calibration column beside a vendor's in a matrix; the label names the switches

  Before any suite a preflight checks that base_url answers GET /health and that the primary token
  is accepted at GET /me (exit 2 with one line if not; the reports say why); each of its requests
  waits at most 10 s (less with a shorter --timeout).

Selection (a run with any of these is partial: never a certification)
  --suite NAME         run only this suite or area (repeatable): openapi, unauthenticated, auth, errors,
                       ledger, ratelimit, conversation, or a file name such as ledger-window
  --only ID            run only the tests that check this requirement id (repeatable), as 'list' or a
                       failure prints it, e.g. auth/5.3/missing-header; an unknown id is refused (exit 2).
                       An id only the run-wide rules judge (ratelimit/8.1/rolling-window-model) runs
                       every test: each exchange is its evidence
  --skip ID            leave out this requirement (repeatable)

Verdict
  --fail-on LEVEL      must (default): only MUST failures fail the run; should: SHOULD failures too;
                       add ,coverage (must,coverage) or give coverage alone: a pair of the exchange matrix
                       the profile allows and the run did not reach makes the run incomplete (exit 3)
  --expect FILE        expectations (waivers): per requirement id the verdict expected, why, an issue link
                       and an expiry date (YAML, schema config/expectations.schema.json). An expected result
                       does not fail the run, an unexpected pass says "fixed: remove the waiver", an expired
                       waiver fails the run; a run with waived results is never a certification
  --baseline FILE      a report.json of an earlier run: the run then fails (exit 1) only on regressions
                       (new failures, error codes renamed or removed, fields gone) or an expired waiver;
                       its last lines say what the gate decided and why (see also 'diff')

Reports
  --out DIR            parent folder of the run's report folder (default: reports); a file, a folder
                       this user cannot write or a path under /proc or /sys is refused before the run
  --format LIST        comma-separated, any of ${REPORT_FORMATS.join(',')} (default: all)

Certification bundle (see 'asi-conformance verify --help')
                       every run writes <run folder>/bundle.tar.gz: the five reports (all of them,
                       whatever --format says), the exchange record, the profile with secrets replaced
                       and a manifest (in-toto Statement) with the SHA-256 of every file
  --bundle-dir DIR     write the bundle's files into this new or empty folder instead of the archive
  --sign-key FILE      sign the manifest (a DSSE envelope) with this Ed25519 private key in PEM
                       (asi-conformance keygen); its passphrase, if any, from ASI_SIGN_KEY_PASSPHRASE
  --no-bundle          write no bundle

Replay
  --seed N             seed of every property test (default: random; printed in the report)
  --replay ID=PATH     replay one property's shrink path; ID names the property (a failure prints the
                       whole line to use)

Target behaviour
  --timeout S          seconds one exchange may take in all: headers and whole body, event streams
                       included (default: 15 for the headers, 30 in all); after 4 requests in a row
                       without a complete answer the target counts as down and the run ends (exit 3)

Behind a gateway, a private CA or a proxy (also in the profile: headers, tls)
  --header 'N: V'      send this header with every request (repeatable). --header 'X-Key: $VAR' (in single
                       quotes) reads the value from the environment and redacts it like a token.
                       Not Authorization: the tokens set it
  --ca-file FILE       PEM bundle of the CAs to trust for an https target, instead of the default ones
  --cert-file FILE     PEM client certificate for a target that asks for one (mTLS); may hold the key too
  --key-file FILE      PEM private key of --cert-file (an encrypted key: tls.passphrase in the profile)
  HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either case) in the environment route requests through a proxy

  -q, --quiet          no progress lines; the closing list of what did not pass is always printed
  -h, --help           this text

Exit codes
  0 conformant, or a partial run in which nothing failed
  1 not conformant: a requirement failed or a waiver expired (with --baseline: a regression)
  2 usage, profile or expectations error; token rejected; no ASI v1 server at base_url
  3 target unreachable, or incomplete: a MUST was not run or not judged, or the run was cut short
    (the target stopped answering, or SIGINT/SIGTERM: fault hooks are switched off first)

Fault hooks (profile: faults.NAME.enable / .disable, run with /bin/sh)
  \${BASE_URL}          the run's base_url, after --base-url; \${ORIGIN}: its scheme, host and port.
                       Set by the run, not taken from the environment: write a hook with them and
                       one profile drills whichever server --base-url names
  asi-conformance      on a hook's PATH first: this harness (e.g. asi-conformance fault NAME on
                       --base-url "\${BASE_URL}" for a reference started with serve)
  Interrupted (SIGINT, SIGTERM, a second signal too), a run stops a running enable command, runs
  each disable exactly once, writes its reports and exits 3.

Examples
  asi-conformance run
  ASI_TOKEN=... asi-conformance run --base-url https://staging.example.com/v1 --suite auth --suite errors
  asi-conformance run --config my-target.yaml --seed 1234 --only ledger/4.1/walk-complete
  asi-conformance run --config my-target.yaml --expect waivers.yaml --baseline last-release/report.json`;

export const SERVE_HELP = `asi-conformance serve: run the embedded reference implementation of ASI v1

Usage
  asi-conformance serve [--port N] [--host ADDR] [--defect NAME ...] [--variant NAME ...]

  --port N             port to listen on (default 8787; 0 picks a free one)
  --host ADDR          address to bind (default 127.0.0.1)
  --defect NAME        switch on a defect that breaks one rule (repeatable): for calibration and demos
  --variant NAME       take another legal choice where the spec leaves one open (repeatable)
  --read-limit N       read pool size (default 600)     } for fast experiments only:
  --write-limit N      write pool size (default 60)     } a run against other limits
  --window-s N         rate-limit window (default 60)   } is not a certification
  --list-switches      list defect and variant switches and exit
  --print-env          print only the export lines for the demo tokens and exit

It prints its base_url and demo tokens. Then, in another shell from this folder:
  export ASI_TOKEN=...   (the lines serve prints)
  asi-conformance run --config config/reference.yaml`;

export const LIST_HELP = `asi-conformance list: print the requirement catalogue

Usage
  asi-conformance list [--area AREA] [--level MUST|SHOULD|INFO] [--json | --markdown]`;

export const CALIBRATE_HELP = `asi-conformance calibrate: prove the checks against the reference's switches

Each defect switch breaks one rule: the run of its suites must fail the requirements it names,
and one that breaks only SHOULD or INFO requirements must fail no MUST beside them.
Each variant switch takes another legal choice: its suites must not fail anything.

Usage
  asi-conformance calibrate [--all] [--defect NAME ...] [--variant NAME ...] [--json FILE]

  --all                every defect and variant (default when no switch is named)
  --defect NAME        one defect (repeatable)
  --variant NAME       one variant (repeatable)
  --json FILE          write the results as JSON
  --shard I/N          only the I-th of N interleaved parts of the list (run N processes in parallel)
  -q, --quiet          one line per switch`;

export const FAULT_HELP = `asi-conformance fault: switch a fault of a standalone reference server

Usage
  asi-conformance fault NAME on|off --base-url URL
  asi-conformance fault NAME on|off --admin URL

  NAME                 limiter_store_down, upstream_unavailable or spend_cap_reached
  --base-url URL       the reference's base_url; its admin URL is that origin's /_admin. In a profile
                       hook: --base-url "\${BASE_URL}", the run's base_url (after --base-url)
  --admin URL          the reference's admin URL, printed by serve (loopback only)`;

export const DIFF_HELP = `asi-conformance diff: compare two reports

Usage
  asi-conformance diff BASELINE.json NEW.json [--json]

Lists new failures, fixed requirements, those still failing, requirement ids added or removed
between harness versions, and error codes or fields the baseline saw that the new run did not
(§9.2: within /v1 error codes are never renamed or removed). A list longer than three ids is
grouped by change and area. Exit 1 only on a regression: a new failure, a code gone, a field gone;
0 otherwise (the last line says which); 2 when a file is not a report.

  --json               print the comparison as JSON`;

export const REPLAY_HELP = `asi-conformance replay: send a requirement's recorded requests again, judge them the same way

Usage
  asi-conformance replay BUNDLE --only ID --base-url URL [--config FILE] [--timeout S]
                         [--header 'NAME: VALUE' ...] [--ca-file F] [--cert-file F --key-file F]

  The loop from "fixed" to "proved fixed" without a full run. For each judgement that gave the
  requirement a finding in the bundle's run (a checker call, recorded with its inputs), the
  exchanges it judged are sent again, in their recorded order, below URL; the same checker judges
  the answers in their place; then and now are printed side by side. The bundle must verify.
  Tokens come from this shell's environment, under the variables the run named ($ASI_TOKEN, ...),
  or from --config's profile: never from the bundle. A recorded request carrying a token (in a
  header, the query string, a cookie or the body) or another secret of the run ($GATEWAY_KEY)
  that this shell does not supply stops the replay before anything is sent: sent with the
  variable's name in its place, its refusal would read as a fix. Judgements that rest on
  requests in time (a pool spent, a window healing, rows added between walks) are named, not
  replayed: run the requirement with 'run --only ID' instead.

  --only ID          the requirement to replay (repeatable)
  --base-url URL     the server to send to (its base_url, ending in /v1)
  --config FILE      a profile: its base_url, tokens, headers and tls (--base-url wins)
  --timeout S        deadline of one exchange in seconds (default 15 for the headers, 30 in all)
  --header, --ca-file, --cert-file, --key-file
                     as for run; HTTPS_PROXY, HTTP_PROXY and NO_PROXY are honoured as run does
  -h, --help         this text

Exit codes
  0  every replayed judgement finds no failure now
  1  a replayed judgement still finds one
  2  usage: no such bundle, an unknown id, no URL or not an http one; the bundle does not
     verify; or a token (or header secret) the recorded requests carry is not in this shell's
     environment (the line names the variable and where the requests carry it)
  3  nothing could be replayed, the server never answered, or a replayed judgement found
     nothing to judge now (NOT PROVED)`;

export const VERIFY_HELP = `asi-conformance verify: check a certification bundle offline

Usage
  asi-conformance verify BUNDLE [--public-key FILE] [--require-certification] [--json]

  BUNDLE is the bundle.tar.gz a run wrote, or a bundle folder (run --bundle-dir, or the archive
  unpacked). Nothing is sent anywhere: the server is not contacted. Verify checks
    - every file against the SHA-256 the manifest (an in-toto Statement) lists: a byte changed, a
      file removed or added is named;
    - the signature (a DSSE envelope, Ed25519) with --public-key: the wrong key, or a manifest
      changed after signing, is named;
    - the harness that made the run against this one: the same requirement catalogue (else it says
      which version to verify with), the same build (package digest: a locally modified harness is
      named), the same spec text and contract;
    - the manifest against report.json: run, selection, limits, waivers, outcome;
    - every judgement of the run (record/judgements.jsonl: each checker call with its inputs and
      output) re-run by the same pure checker on the recorded exchanges, the run-wide rules over
      the whole record, and every finding of report.json traced to the judgement that gave it: a
      verdict the evidence does not support names the requirement and the difference;
    - every verdict re-derived from the findings by the harness's own functions, and the counts,
      outcome and exit code from the verdicts;
    - every exchange a finding cites against the exchange record: a missing or altered exchange is
      named;
    - junit.xml, summary.md, report.html and transcript.har against what this harness writes from
      report.json and the record (same build only).
  It then says whether the run is a certification: the spec's limits, every requirement selected
  (no --suite, --only or --skip), every requirement judged (none not run, inconclusive or
  uncovered), no waiver, the outcome conformant, and an unmodified harness of this build.

  --public-key FILE          the signer's Ed25519 public key in PEM (asi-signing-key.pub.pem)
  --require-certification    exit 1 when the bundle is intact but the run is not a certification
  --json                     print the verification as JSON
  -h, --help                 this text

Exit codes
  0 the bundle is intact and every verdict re-derives (a certification or not: the last line says)
  1 something does not verify: a file changed, added or removed, the wrong key or a bad signature,
    a verdict or a cited exchange the evidence does not support, another requirement catalogue;
    or, with --require-certification, the run is not a certification
  2 usage: no such file, not a bundle (not a gzip'd tar or a folder with a manifest.json, a link or
    a path out of the bundle, past the size bounds), a key file that is no Ed25519 public key

Examples
  asi-conformance verify reports/2026-11-25T21-53-06Z-3b91/bundle.tar.gz
  asi-conformance verify submission.tar.gz --public-key vendor.pub.pem --require-certification`;

export const KEYGEN_HELP = `asi-conformance keygen: write an Ed25519 key pair for signing bundles

Usage
  asi-conformance keygen --out DIR

  --out DIR            folder for asi-signing-key.pem (private, mode 0600) and asi-signing-key.pub.pem
                       (public: hand it to whoever verifies); created if missing. An existing key is
                       never overwritten (exit 2).
  -h, --help           this text

  With ASI_SIGN_KEY_PASSPHRASE set, the private key is encrypted with it (PKCS#8, AES-256-CBC);
  'run --sign-key' then reads the same variable. Keys are made by node:crypto: no network.

Examples
  ASI_SIGN_KEY_PASSPHRASE=... asi-conformance keygen --out keys
  asi-conformance run --config target.yaml --sign-key keys/asi-signing-key.pem
  asi-conformance verify reports/<run-id>/bundle.tar.gz --public-key keys/asi-signing-key.pub.pem`;

export const BADGE_HELP = `asi-conformance badge: an SVG badge from a certification bundle

Usage
  asi-conformance badge BUNDLE [--out FILE] [--public-key FILE]

  Verifies the bundle first, as 'verify' does; only a bundle that verifies gets a badge (exit 1
  with the reason otherwise). The badge shows the status (certified, conformant, partial, not
  conformant, incomplete), the requirements passed, the date of the run, and in its title the
  harness version and the run id.

  --out FILE           where to write it (default: badge.svg beside the bundle)
  --public-key FILE    the signer's public key: the signature is checked too
  -h, --help           this text

Exit codes
  0 badge written   1 the bundle does not verify   2 usage, not a bundle, a bad key file`;

export const MATRIX_HELP = `asi-conformance matrix: many implementations on one page

Usage
  asi-conformance matrix FILE [--out DIR] [--concurrency N] [--seed N]
  asi-conformance matrix merge PATH... [--out DIR] [--public-key FILE ...]

  matrix FILE certifies every target of a targets file (YAML; schema config/targets.schema.json,
  example examples/targets.yaml), each in its own 'asi-conformance run' process with its own
  profile, pacer, report and bundle, a few at a time, printing a line when each starts and ends.
  A target is a profile (tokens from the variables it names: two servers, two sets of variables),
  a base_url (tokens from ASI_TOKEN, ...), or the embedded reference, with defect or variant
  switches if asked (a calibration column). Every file, profile and token is checked before the
  first run starts. SIGINT or SIGTERM is passed to every run under way (each stops, switches its
  fault hooks off and writes its reports); targets not started yet stay so.

  matrix merge PATH... builds the same page from bundles made elsewhere (a CI job per target):
  every *.tar.gz and every folder with a manifest.json under the paths given. Each is verified as
  'verify' does; one that does not verify is a column that says why, with no verdicts.

  Both write <out>/matrix-<time>-<id>/matrix.html and matrix.json: requirements as rows in catalogue
  order by area, with a summary row per area; a column per implementation (label, version,
  outcome, harness, bundle digest, verified or not); each cell the verdict, linking to the
  requirement in that run's report.html; first, the requirements on which they disagree.
  Columns showing one implementation twice (same label and version, or the same bundle) are marked.

  --out DIR            parent folder of the matrix folder (default: reports; the file's out: key,
                       relative to the file, for matrix FILE)
  --concurrency N      targets run at once (default 2, or the file's concurrency:)
  --seed N             one seed for every target's property tests (default: the file's, or each
                       run its own)
  --public-key FILE    (merge) a signer's Ed25519 public key (repeatable): each bundle is checked with
                       the key its signature names; with any given, an unsigned bundle does not verify
  -h, --help           this text

Exit codes
  0 every column conformant, or a partial run in which nothing failed
  1 a column is not conformant, or its bundle does not verify
  2 usage: the targets file, a profile, a token variable, a suite or id, no bundle found
  3 a column is incomplete, refused at the preflight (a token rejected) or unreachable, or has no
    report, or the matrix was interrupted

Examples
  asi-conformance matrix examples/targets.yaml
  asi-conformance matrix merge artifacts --out matrix`;

export const CLIENT_HELP = `asi-conformance client: grade a client against the spec's rules for clients

Each scenario starts the reference in a scripted, recording mode on a free 127.0.0.1 port, runs
COMMAND with the server's address and a token in its environment, records every request the
server received, and judges the record. The command runs in its own process group with stdio
inherited.

Usage
  asi-conformance client [--scenario NAME ...] [--seed N] [--out DIR] [--env-prefix P]
                         [--time-limit S] [--expect FILE] [--baseline FILE]
                         [--sign-key FILE | --no-bundle] -- COMMAND...

Options
  --scenario NAME   paging, rate-limited, permanent, transient, wording, slow-job, streams or
                    slow-down (repeatable; default: all)
  --seed N          fixes the scripted cursors and rows (default: random, printed)
  --out DIR         reports go to DIR/client-<run-id>/ (default: reports)
  --env-prefix P    the variables' prefix (default: ASI)
  --time-limit S    seconds each scenario's command may run (default: 30)
  --expect FILE     waivers, as run's: a client requirement's expected verdict does not count
  --baseline FILE   an earlier client grading's report.json: only a regression fails
  --sign-key FILE   sign the bundle's manifest (Ed25519 key from keygen)
  --no-bundle       write no bundle.tar.gz

Outputs (in DIR/client-<run-id>/)
  report.json, summary.md, junit.xml, report.html (a timeline per scenario), transcript.har,
  and bundle.tar.gz: check it offline with 'asi-conformance verify', which re-derives every
  verdict from the recorded trace

The command's environment
  P_BASE_URL   the scripted server's base URL, ending in /v1
  P_TOKEN      a token the server accepts in Authorization: Bearer
  P_SCENARIO   the scenario's name: what the client is asked to do
  P_RESULT_FILE  where the client writes its final state (streams: the assistant's text or
               "error <code>")

Exit codes
  0 conformant (or only failures waived or in the baseline)   1 a MUST failed
  2 usage (an --out that cannot be written too)   3 nothing judged (the command sent nothing,
  or could not start)`;
