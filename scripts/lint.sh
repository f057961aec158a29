#!/usr/bin/env bash
# Fails when gofmt, go vet or templ generation would change anything, or
# when a tracked file is over 1 MiB and not in big_ok.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every clone carries every committed byte for good: no tracked file over
# 1 MiB (1,048,576 bytes) unless it is named in big_ok, one path a line.
# git ls-files, so a clean clone is checked the same as a working copy.
big_ok='
'
big=
while IFS= read -r -d '' f; do
	[ -f "$f" ] || continue
	size=$(wc -c <"$f")
	if [ "$size" -gt 1048576 ] && ! printf '%s\n' "$big_ok" | grep -Fxq -- "$f"; then
		big="$big$f ($((size)) bytes)"$'\n'
	fi
done < <(git ls-files -z)
if [ -n "$big" ]; then
	echo "tracked files over 1 MiB (shrink them, or name them in big_ok in scripts/lint.sh):"
	printf '%s' "$big"; exit 1
fi

unformatted=$(gofmt -l $(git ls-files --cached --others --exclude-standard '*.go' | grep -v '_templ.go$') || true)
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...

sum() { find . -name '*_templ.go' -not -path './.git/*' -print0 | sort -z | xargs -0 cat 2>/dev/null | md5sum; }
before=$(sum)
go tool templ generate >/dev/null
after=$(sum)
if [ "$before" != "$after" ]; then
	echo "templ generate changed *_templ.go files: run 'make generate' and commit them"
	git status --short -- '*_templ.go'
	exit 1
fi
echo "lint: ok"
