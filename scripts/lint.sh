#!/usr/bin/env bash
# Fails when gofmt, go vet or templ generation would change anything.
set -euo pipefail
cd "$(dirname "$0")/.."

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
