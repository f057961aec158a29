# stridescope: `make help` lists the targets.
GO       ?= go
ADDR     ?= 127.0.0.1:8080
FUZZTIME ?= 5s
GOTESTFLAGS ?=

.PHONY: help run build test unit race fuzz lint generate bench bench-quick bench-web loadtest e2e

help: ## List the targets.
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "} {printf "  %-12s %s\n", $$1, $$2}'

run: ## Serve on http://$(ADDR) with everything embedded.
	$(GO) run ./cmd/server -addr $(ADDR)

build: ## Build the server binary into bin/.
	$(GO) build -o bin/stridescope ./cmd/server

test: lint unit race fuzz ## Everything CI checks: lint, unit and browser tests, race detector, short fuzzing.

unit: ## Unit, handler, websocket and browser tests (browser tests skip without Chromium).
	$(GO) test -count=1 -timeout 20m $(GOTESTFLAGS) ./...

race: ## The packages with concurrency, under the race detector and checkptr.
	$(GO) test -count=1 -race ./budget/... ./compute/... ./rooms/... ./live/... ./web/... ./cmd/loadtest/...
	$(GO) test -count=1 -gcflags=all=-d=checkptr ./compute/...

fuzz: ## Run every fuzz target for FUZZTIME each.
	@scripts/fuzz.sh $(FUZZTIME)

lint: ## gofmt, go vet, templ generation drift, tracked files over 1 MiB.
	@scripts/lint.sh

generate: ## Regenerate the templ components and the English catalog's messages.
	$(GO) tool templ generate
	$(GO) generate ./i18n

bench: ## The full slice-engine benchmark matrix (about 70 s; -md for Markdown).
	$(GO) run ./cmd/bench

bench-quick: ## The quick benchmark, one JSON object per case.
	$(GO) run ./cmd/bench -quick -json

bench-web: ## Browser timings in Chromium (navigation, edit, hover) for both explorers at every size; writes bench-web.md.
	$(GO) run ./cmd/benchweb -runs 5 | tee bench-web.md

loadtest: ## The full load test: 500 websocket clients x 100 paced edits, p99 under 50 ms.
	STRIDESCOPE_LOADTEST=full $(GO) test -count=1 -v -run LoadEdits ./cmd/loadtest/

e2e: ## Only the end-to-end tests in Chromium.
	$(GO) test -count=1 -run 'E2E' -v ./e2e/...
