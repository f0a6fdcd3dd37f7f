#!/usr/bin/env bash
# Runs `npm test` with CPU hogs beside it: by default one busy loop per core, so the machine has about twice as many
# runnable processes as cores (Jest's two workers and the services they start, plus the hogs), as a shared CI
# machine often does. The suite must pass so: every wait is a condition (test/helpers/patience.ts), never a
# budget for the machine's speed.
#
#   scripts/test-under-load.sh [--runs N] [--hogs N]
#
# --runs N runs the suite N times in a row and stops at the first failure (a flaky test shows by passing once and
# failing the next time); --hogs N sets the number of busy loops. Prints `run K of N: passed` or `failed` after each.
set -uo pipefail
cd "$(dirname "$0")/.."

runs=1
hogs=$(nproc)
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --hogs) hogs=$2; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--hogs N]" >&2; exit 2 ;;
  esac
done

pids=()
stop_hogs() {
  [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2> /dev/null
  wait "${pids[@]}" 2> /dev/null
  pids=()
}
trap stop_hogs EXIT
trap 'exit 130' INT TERM
for _ in $(seq "$hogs"); do
  # A shell loop that never sleeps nor does I/O: one core's worth of runnable work, at the suite's own priority.
  bash -c 'while :; do :; done' &
  pids+=("$!")
done
echo "$hogs busy loop(s) running beside the suite ($(nproc) cores)"

for run in $(seq "$runs"); do
  if npm test; then
    echo "run $run of $runs: passed"
  else
    echo "run $run of $runs: failed"
    exit 1
  fi
done
