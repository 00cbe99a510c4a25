#!/usr/bin/env bash
# Load proof: the self-tests pass on a loaded machine. Starts two CPU burners (one busy node
# process per core of a two-core machine), runs the self-tests three times in a row under them, and
# reports pass or fail and wall time of each run. The burners are always stopped, whatever ends the
# script (a failure, Ctrl-C, a kill). Exit 0 when every run passed, 1 otherwise.
#
#   bench/load-proof.sh                              npm test (build, then every self-test), three times
#   bench/load-proof.sh test/e2e/verdicts.test.ts    only the files (or vitest filters) given, three times
#   RUNS=1 BURNERS=4 bench/load-proof.sh ...         another count of runs or of burners
#
# A full proof takes three full `npm test` runs under load: run it on a machine of your own, not one
# shared with others' work. Through npm: `npm run load-proof -- test/e2e/back-to-back.test.ts`.
set -u

RUNS="${RUNS:-3}"
BURNERS="${BURNERS:-2}"
cd "$(dirname "$0")/.." || exit 2

burners=()
# The command running now, in a process group of its own: stopped with the burners.
child=''
stop_all() {
  if [ -n "$child" ]; then kill -- "-$child" 2>/dev/null; fi
  for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${burners[@]}"; do wait "$pid" 2>/dev/null; done
  burners=()
}
trap stop_all EXIT

# Runs a command in the background and waits for it, so that a signal stops the script at once
# (bash runs a trap only once the foreground command returns); its exit code is the command's.
run() {
  setsid "$@" &
  child=$!
  wait "$child"
  local code=$?
  child=''
  return "$code"
}
trap 'exit 130' INT
trap 'exit 143' TERM

for _ in $(seq "$BURNERS"); do
  node -e 'for (;;);' &
  burners+=("$!")
done
echo "load-proof: ${#burners[@]} CPU burners (pids ${burners[*]}), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"

# With file filters the build is done once up front, as `npm test` would (its pretest).
if [ "$#" -gt 0 ]; then
  run npm run --silent build || exit 2
  what="vitest run $*"
else
  what="npm test"
fi

failed=0
for run in $(seq "$RUNS"); do
  log="$(mktemp -t asi-load-proof-XXXXXX.log)"
  started="$(date +%s%N)"
  if [ "$#" -gt 0 ]; then
    run npx vitest run "$@" >"$log" 2>&1
  else
    run npm test >"$log" 2>&1
  fi
  code=$?
  seconds="$(awk -v a="$started" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')"
  summary="$(sed -E 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^\s*(Test Files|Tests)\s' | sed -E 's/^\s+//; s/\s+/ /g' | paste -sd ";" - | sed "s/;/; /g")"
  # A passing run's log goes; a failing one's stays for reading.
  if [ "$code" -eq 0 ]; then
    verdict=pass
    rm -f "$log"
    kept=''
  else
    verdict="FAIL (exit $code)"
    failed=$((failed + 1))
    kept="  (log: $log)"
  fi
  printf 'run %d of %d: %-16s %7s s  %s%s\n' "$run" "$RUNS" "$verdict" "$seconds" "$summary" "$kept"
done

echo "load-proof: $what, $RUNS runs beside ${#burners[@]} CPU burners: $((RUNS - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
