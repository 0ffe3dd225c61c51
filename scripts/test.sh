#!/usr/bin/env bash
# `npm test`: the typecheck beside the suites, not before them (TypeScript 7's compiler, one thread:
# about 11 s of one core, against 56 CPU-seconds for TypeScript 5.9's); red when either is red.
# Arguments go to vitest.
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
