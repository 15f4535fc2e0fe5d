# The two entry points (see README): `make bench` and `make test`. Each installs what it needs.
SWIFT ?= swift
BENCH_ARGS ?=
FUZZ_SECONDS ?= 20

.PHONY: bench test deps build-release lint fuzz

# jemalloc (and pkg-config, through which SwiftPM finds it) from Debian, installed only when missing.
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists jemalloc; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing libjemalloc-dev and pkg-config"; \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y libjemalloc-dev pkg-config; \
	  else \
	    echo "jemalloc is missing; run: sudo apt-get update && sudo apt-get install -y libjemalloc-dev pkg-config"; \
	    exit 1; \
	  fi; \
	fi

build-release: deps
	$(SWIFT) build -c release --product deeplink-bench

# The main job: the default benchmark run, writing a report.
bench: build-release
	.build/release/deeplink-bench $(or $(BENCH_ARGS),inspect 'utm_source=google&utm_medium=cpc&deeplink=%2Fproduct%2F42')

test: deps
	$(SWIFT) test

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Benchmarks Fuzz

# Coverage-guided fuzzing (libFuzzer + ASan) of everything that parses outside input; see README.
fuzz:
	Fuzz/run.sh $(FUZZ_SECONDS)
