#!/usr/bin/env bash
# The certify step of the GitHub Action (action.yml at the top of the repository): runs
# `asi-conformance run` with the action's inputs and hands the verdict to the workflow: the step
# outputs exit-code, outcome, report-dir, junit, bundle and bundle-sha256, and summary.md appended
# to the step summary.
#
# Inputs arrive as ASI_ACTION_* variables, never spliced into a script, so no input can become
# shell code. It exits 0 whatever the verdict: the reports are uploaded first, and the action's
# last step exits with the harness's code. The step runs it with `exec`, so the signals of a
# cancelled job (SIGINT, then SIGTERM) reach this script, which passes them on to the harness:
# it switches its fault hooks off and writes its reports before it exits.
set -euo pipefail

: "${GITHUB_OUTPUT:=/dev/null}" "${GITHUB_STEP_SUMMARY:=/dev/null}"
cli="${GITHUB_ACTION_PATH:?is not set: the folder of the action}/bin/asi-conformance.js"
out="${ASI_ACTION_OUT:-reports}"

# A secret input (a token, the signing key's passphrase) that is set becomes the harness's
# conventional variable; one left empty keeps whatever the job's environment holds, so secrets may
# come from `env:` instead. Neither is ever printed.
pass_secret() {
  local value="${!2:-}"
  if [ -n "$value" ]; then export "$1=$value"; fi
  unset "$2"
}
pass_secret ASI_TOKEN ASI_ACTION_TOKEN
pass_secret ASI_TOKEN_2 ASI_ACTION_TOKEN_2
pass_secret ASI_TOKEN_WS2 ASI_ACTION_TOKEN_WS2
pass_secret ASI_TOKEN_REVOKED ASI_ACTION_TOKEN_REVOKED
pass_secret ASI_TOKEN_EXPIRED ASI_ACTION_TOKEN_EXPIRED
pass_secret ASI_SIGN_KEY_PASSPHRASE ASI_ACTION_SIGN_KEY_PASSPHRASE

# `--flag=value` in one word: a value that starts with a dash stays a value.
args=(run "--out=$out")
add() {
  if [ -n "$2" ]; then args+=("$1=$2"); fi
}
# A list input: one flag per item, items apart by spaces, commas or new lines.
add_each() {
  local -a items=()
  local item
  # The NUL at the end is read's delimiter: read then succeeds, at the end of the items too.
  IFS=$' \t\n,' read -r -d '' -a items < <(printf '%s\0' "$2")
  # ${a[@]+...}: an empty array is "unbound" to the bash 3.2 of macOS runners under set -u.
  for item in ${items[@]+"${items[@]}"}; do args+=("$1=$item"); done
}
add --config "${ASI_ACTION_CONFIG:-}"
add --base-url "${ASI_ACTION_BASE_URL:-}"
add --fail-on "${ASI_ACTION_FAIL_ON:-}"
add --expect "${ASI_ACTION_EXPECT:-}"
add --baseline "${ASI_ACTION_BASELINE:-}"
add --sign-key "${ASI_ACTION_SIGN_KEY:-}"
add_each --suite "${ASI_ACTION_SUITE:-}"
add_each --only "${ASI_ACTION_ONLY:-}"
add_each --skip "${ASI_ACTION_SKIP:-}"
# Further arguments, one a line, as they are (a value may hold spaces: --label=Acme preview).
while IFS= read -r line; do
  line="${line#"${line%%[![:space:]]*}"}"
  line="${line%"${line##*[![:space:]]}"}"
  if [ -n "$line" ]; then args+=("$line"); fi
done <<< "${ASI_ACTION_ARGS:-}"

# The run's folder is the one that appears under --out: run ids are unique.
runs() {
  local d
  for d in "$out"/*/; do
    if [ -d "$d" ]; then
      d="${d%/}"
      printf '%s\n' "${d##*/}"
    fi
  done | LC_ALL=C sort
}
before="$(runs)"

harness=
interrupted=
forward() {
  if [ -n "$harness" ] && kill -s "$1" "$harness" 2>/dev/null; then interrupted=1; fi
}
trap 'forward INT' INT
trap 'forward TERM' TERM
node "$cli" "${args[@]}" &
harness=$!
code=0
wait "$harness" || code=$?
# A signal ends `wait` early: wait again for the harness's own exit code.
while [ -n "$interrupted" ]; do
  interrupted=
  code=0
  wait "$harness" || code=$?
done
trap - INT TERM

name="$(LC_ALL=C comm -13 <(printf '%s\n' "$before") <(runs) | tail -n 1)"
dir=
if [ -n "$name" ]; then dir="$(cd "$out" && pwd)/$name"; fi
outcome=no-report
if [ -n "$dir" ] && [ -f "$dir/report.json" ]; then
  outcome="$(node -e 'process.stdout.write(JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8")).outcome)' "$dir/report.json")"
fi
junit=
if [ -n "$dir" ] && [ -f "$dir/junit.xml" ]; then junit="$dir/junit.xml"; fi

# The bundle: bundle.tar.gz in the run's folder, or the folder `--bundle-dir=` named (args); none
# with --no-bundle or when the run wrote no report. Its digest is computed here from the file as
# written, as the CLI computes the one it prints: of the archive, or of a folder's manifest.json.
sha256_of() {
  node -e 'const h = require("node:crypto").createHash("sha256"); h.update(require("node:fs").readFileSync(process.argv[1])); process.stdout.write(h.digest("hex"))' "$1"
}
bundle_dir=
for arg in "${args[@]}"; do
  case "$arg" in --bundle-dir=*) bundle_dir="${arg#--bundle-dir=}" ;; esac
done
bundle=
bundle_sha256=
if [ -n "$dir" ] && [ -n "$bundle_dir" ] && [ -f "$bundle_dir/manifest.json" ]; then
  bundle="$(cd "$bundle_dir" && pwd)"
  bundle_sha256="$(sha256_of "$bundle/manifest.json")"
elif [ -n "$dir" ] && [ -z "$bundle_dir" ] && [ -f "$dir/bundle.tar.gz" ]; then
  bundle="$dir/bundle.tar.gz"
  bundle_sha256="$(sha256_of "$bundle")"
fi
{
  echo "exit-code=$code"
  echo "outcome=$outcome"
  echo "report-dir=$dir"
  echo "junit=$junit"
  echo "bundle=$bundle"
  echo "bundle-sha256=$bundle_sha256"
} >> "$GITHUB_OUTPUT"

if [ -n "$dir" ] && [ -f "$dir/summary.md" ]; then
  cat "$dir/summary.md" >> "$GITHUB_STEP_SUMMARY"
else
  case "$code" in
    2) why='a usage, profile or expectations error, or an --out that cannot be written' ;;
    3) why='the harness failed before it wrote a report' ;;
    *) why='no summary.md among the formats written' ;;
  esac
  printf '**asi-conformance** exited %s without a summary (%s): the log of the step says why.\n' "$code" "$why" >> "$GITHUB_STEP_SUMMARY"
fi
