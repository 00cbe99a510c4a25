#!/usr/bin/env bash
# The install step of the GitHub Action (action.yml): node_modules and dist of the action's own
# checkout, installed by its lockfile and built from its sources. Skipped when both are there for
# this key (action/install-key.mjs): restored from the cache, or left by an earlier job on a runner
# that keeps its actions folder. A stamp in node_modules names the key that made them; it is
# written last, so an install cut short is never taken for a whole one. It sets the step output
# `installed`: true when it installed (the action then saves the cache), false when it did not.
set -euo pipefail

: "${GITHUB_OUTPUT:=/dev/null}"
key="${ASI_INSTALL_KEY:?is not set: the key of the install (action/install-key.mjs)}"
stamp=node_modules/.asi-conformance-install-key

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ] && [ -f dist/cli/main.js ]; then
  echo "asi-conformance: node_modules and dist are current ($key): nothing to install"
  echo 'installed=false' >> "$GITHUB_OUTPUT"
  exit 0
fi
npm ci --ignore-scripts --no-audit --no-fund
# The sources were type-checked before release: emit only (the same dist/, in half the time).
npm run --silent build -- --no-check
printf '%s\n' "$key" > "$stamp"
echo 'installed=true' >> "$GITHUB_OUTPUT"
