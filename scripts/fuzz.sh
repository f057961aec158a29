#!/usr/bin/env bash
# Runs every fuzz target in the module for a short time each ($1, e.g. 5s).
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${1:-5s}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for pkg in $(go list ./...); do
	for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "fuzz: $pkg $target ($fuzztime)"
		if go test -run='^$' -fuzz="^${target}\$" -fuzztime="$fuzztime" "$pkg" >"$log" 2>&1; then
			tail -n 1 "$log"
			continue
		fi
		# The fuzzing engine can report "context deadline exceeded" when
		# the time runs out under a worker still busy on an input; that
		# is no finding. A finding writes its failing input.
		if ! grep -q 'Failing input written to' "$log" && grep -q 'context deadline exceeded' "$log"; then
			echo "fuzz: $target: time ran out inside a worker (no failing input); not a finding"
			continue
		fi
		cat "$log"
		exit 1
	done
done
