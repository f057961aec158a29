#!/usr/bin/env bash
# Runs every fuzz target in the module for a short time each ($1, e.g. 5s).
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${1:-5s}
for pkg in $(go list ./...); do
	for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "fuzz: $pkg $target ($fuzztime)"
		go test -run='^$' -fuzz="^${target}\$" -fuzztime="$fuzztime" "$pkg" >/tmp/fuzz.$$.log 2>&1 || { cat /tmp/fuzz.$$.log; exit 1; }
		tail -n 1 /tmp/fuzz.$$.log
	done
done
