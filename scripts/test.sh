#!/usr/bin/env bash
# `npm test`: the typecheck beside the suites, not before them (tsc keeps one core busy for about
# 30 s while the suites start PostgreSQL and wait on it); red when either is red. Arguments go to vitest.
set -uo pipefail
cd "$(dirname "$0")/.."
npm run -s typecheck &
typecheck=$!
npx vitest run "$@"
suites=$?
wait "$typecheck"
types=$?
[ "$types" -ne 0 ] && echo "typecheck failed (npm run typecheck)" >&2
exit $(( suites != 0 ? suites : types ))
