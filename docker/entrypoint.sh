#!/bin/sh
# Entry point of the asi-conformance image. Arguments go to the CLI as they are, so
#   docker run ... asi-conformance run --config target.yaml
# works like the installed command; options alone mean `run`, so
#   docker run ... asi-conformance --base-url https://staging.example.com/v1
# certifies a target. The CLI's exit code is the container's (0, 1, 2, 3: see --help).
set -eu
case "${1:-}" in
  -h | --help | -v | --version) ;;
  -*) set -- run "$@" ;;
esac
exec asi-conformance "$@"
