# The two entry points (see README): `make bench` and `make test`. Each installs what it needs.
SWIFT ?= swift
BENCH_ARGS ?=
FUZZ_SECONDS ?= 20

# The run the regression gate compares (fixed seed and size, so baselines stay comparable).
GATE_RUN ?= --journeys 200000 --seed 1 --quiet

.PHONY: bench test deps build-release lint gate gate-hard baseline fuzz coverage-check c-abi-test kotlin-deps \
	kotlin-test symbol-graph public-api-check kotlin-adapter-check option-literals-check hog-fall

# jemalloc and OpenSSL's libcrypto (SHA-256 of report files), and pkg-config, through which SwiftPM
# finds them, and valgrind (the instruction-count gate), from Debian; installed only when missing.
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists jemalloc || ! pkg-config --exists libcrypto \
	    || ! command -v valgrind >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing libjemalloc-dev, libssl-dev, pkg-config and valgrind"; \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y libjemalloc-dev libssl-dev pkg-config valgrind; \
	  else \
	    echo "jemalloc, libcrypto or valgrind is missing; run: sudo apt-get update && sudo apt-get install -y libjemalloc-dev libssl-dev pkg-config valgrind"; \
	    exit 1; \
	  fi; \
	fi

# CoreBenchmarks too: the instruction gate counts its subjects.
build-release: deps
	$(SWIFT) build -c release --product deeplink-bench
	$(SWIFT) build -c release --product CoreBenchmarks

# The main job: the default benchmark run, writing a report.
bench: build-release
	.build/release/deeplink-bench run $(BENCH_ARGS)

test: deps
	python3 Tests/Docs/check_readme.py --map-only
	$(SWIFT) test

# The C ABI (Sources/DeepLinkC/include/deeplink.h) from Python ctypes, against the shared library.
c-abi-test:
	$(SWIFT) build --product DeepLinkC
	python3 Tests/CABI/test_c_abi.py "$$($(SWIFT) build --show-bin-path)/libDeepLinkC.so"

# Kotlin, a JDK and JNA from Debian, for the Kotlin programs that drive the C ABI; installed only
# when missing.
KOTLIN_PACKAGES = kotlin openjdk-17-jdk-headless libjna-java
kotlin-deps:
	@if ! command -v kotlinc >/dev/null 2>&1 || ! command -v java >/dev/null 2>&1 || [ ! -f /usr/share/java/jna.jar ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing $(KOTLIN_PACKAGES)"; \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(KOTLIN_PACKAGES); \
	  else \
	    echo "kotlin, a JDK or JNA is missing; run: sudo apt-get update && sudo apt-get install -y $(KOTLIN_PACKAGES)"; \
	    exit 1; \
	  fi; \
	fi

# The C ABI from Kotlin through JNA (Tests/Kotlin/CABITest.kt): one route, a forged link refused.
kotlin-test: kotlin-deps
	SWIFT=$(SWIFT) Tests/Kotlin/run.sh

# The public symbol graphs (.build/symbolgraph/). `dump-symbol-graph` builds only the products, then
# asks for every module's graph, the test runners' too: their modules must be built first.
symbol-graph:
	$(SWIFT) build --build-tests
	$(SWIFT) package dump-symbol-graph --minimum-access-level public

# DeepLinkCore's public API: at most 28 top-level types, all in the DocC topics, no twin enums, and
# no capture call that ForgedLinkCaptureTests does not cover.
public-api-check: symbol-graph
	python3 Tests/PublicAPI/check_public_api.py "$$($(SWIFT) build --show-bin-path)/../symbolgraph"

# How far core's and naive's rates fall beside two CPU hogs, in pairs of runs (issue 38: core's
# fall at most twice naive's). A benchmark, not a test: it reads the machine's time.
hog-fall: build-release
	python3 Benchmarks/hog_fall.py .build/release/deeplink-bench --pairs 3 --hogs 2 --limit 2

# Regression gate against the committed baseline: three fresh runs, noise-aware timing verdicts.
gate: build-release
	rm -rf Reports/gate-current
	.build/release/deeplink-bench gate --baseline Reports/baseline --current Reports/gate-current --repetitions 3

# The deterministic part only (violations, bytes per journey, instructions per operation under
# callgrind), for noisy CI machines.
gate-hard: build-release
	rm -rf Reports/gate-current Reports/gate-instructions
	.build/release/deeplink-bench run $(GATE_RUN) --out Reports/gate-current
	.build/release/deeplink-bench gate --baseline Reports/baseline --current Reports/gate-current --hard-only
	.build/release/deeplink-bench gate --instructions --baseline Reports/baseline --current Reports/gate-instructions

# The default `make bench` run must exercise every core decision path at least 1,000 times.
coverage-check: build-release
	rm -rf Reports/coverage-check
	.build/release/deeplink-bench run --quiet --out Reports/coverage-check > /dev/null
	python3 Tests/Coverage/check_coverage.py Reports/coverage-check --min 1000 --kind path --kind point

# Re-record the baseline (three repetitions) on this machine type; commit the result.
baseline: build-release
	rm -rf Reports/baseline
	for rep in 1 2 3; do .build/release/deeplink-bench run $(GATE_RUN) --no-report --out Reports/baseline/rep-$$rep; done
	.build/release/deeplink-bench gate --instructions --record Reports/baseline/instructions

# Each option name is written once in Sources, in its declaration (Option/Flag); every other
# mention goes through it, so a misspelled name does not compile.
option-literals-check:
	python3 Tests/CLI/check_option_literals.py

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Benchmarks Fuzz

# Coverage-guided fuzzing (libFuzzer + ASan) of everything that parses outside input; see Docs/Development.md.
fuzz:
	Fuzz/run.sh $(FUZZ_SECONDS)

# Issue 37: the Kotlin adapter (Tests/KotlinAdapter), a second implementation of the journey
# protocol, built with Debian's kotlinc and judged by conform and a 20k-journey run, whose verdict
# fails it (exit 1) on any violation of exec:kotlin.
kotlin-adapter-check: kotlin-deps build-release
	kotlinc Tests/KotlinAdapter/Adapter.kt -include-runtime -d .build/kotlin-adapter.jar
	.build/release/deeplink-bench conform exec:kotlin --exec 'kotlin=java -jar .build/kotlin-adapter.jar'
	.build/release/deeplink-bench conform exec:kotlin --exec 'kotlin=java -jar .build/kotlin-adapter.jar' --kill signal
	.build/release/deeplink-bench run --journeys 20000 --strategies exec:kotlin \
	    --exec 'kotlin=java -jar .build/kotlin-adapter.jar' --quiet --no-report --out .build/kotlin-adapter-run
