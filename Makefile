# The two commands the README opens with: `make demo` and `make test`. Both install what is
# missing (Debian packages, as root), configure, build, then run.
BUILD ?= build
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo
JOBS ?= $(shell nproc)
# More ctest arguments (CI: -LE slow for the second compiler's run).
CTEST_ARGS ?=
PREFIX ?= /usr/local

.PHONY: all deps configure build test test-clang test-asan format format-check tidy fuzz check-claims check-load soak demo bench install clean

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS)

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) --timeout 600 $(CTEST_ARGS)

# weft itself built by clang (its test programs too), in a build directory of its own:
# weft must build and work with either compiler. CI runs it after `make test`.
CLANG_BUILD ?= build-clang
test-clang: deps
	CC=clang CXX=clang++ cmake -S . -B $(CLANG_BUILD) -G Ninja $(CMAKE_FLAGS)
	cmake --build $(CLANG_BUILD) -j $(JOBS)
	ctest --test-dir $(CLANG_BUILD) --output-on-failure -j $(JOBS) --timeout 600 $(CTEST_ARGS)

# The unit tests of the libraries never loaded into a program under test (core, strategy,
# detect, report: ctest -L sanitized), built by clang with ASan and UBSan in a build
# directory of their own. CI runs it.
ASAN_BUILD ?= build-asan
test-asan: deps
	CC=clang CXX=clang++ cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DWEFT_SANITIZE=ON -DWEFT_WERROR=ON -DWEFT_BUILD_BENCH=OFF
	cmake --build $(ASAN_BUILD) -j $(JOBS) --target weft_sanitized_tests
	ctest --test-dir $(ASAN_BUILD) -L sanitized --output-on-failure -j $(JOBS) --timeout 600

# weft's own code (src/, include/) in its style (.clang-format): `make format` applies it,
# `make format-check` (CI) fails on a file that differs, naming it.
FORMATTED = $(shell git ls-files 'src/*.cpp' 'src/*.hpp' 'include/*.hpp')
CLANG_FORMAT ?= clang-format-14
format: deps
	$(CLANG_FORMAT) -i $(FORMATTED)
format-check: deps
	$(CLANG_FORMAT) --dry-run --Werror $(FORMATTED)

# clang-tidy's checks (.clang-tidy: bugprone, performance, function size) on weft's own
# code, from the build's compile commands. Not in CI yet: see CONTRIBUTING.md.
# One clang-tidy per file, $(JOBS) at once (run-clang-tidy): one that crashes (clang-tidy
# 14 does on some of CLI11's headers) is reported and the others still run.
RUN_CLANG_TIDY ?= run-clang-tidy-14
tidy: configure
	$(RUN_CLANG_TIDY) -p $(BUILD) -j $(JOBS) -quiet '$(CURDIR)/src/.*\.cpp$$'


# The libFuzzer targets (fuzz/), built by clang with ASan and UBSan in a build directory of
# their own, each run for FUZZ_TIME seconds from its seed corpus (fuzz/corpus/<target>).
FUZZ_BUILD ?= build-fuzz
FUZZ_TIME ?= 60
FUZZ_TARGETS ?= schedule_decoder merge_results options strategy_spec checkpoint
fuzz: deps
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DWEFT_FUZZ=ON -DWEFT_BUILD_TESTS=OFF -DWEFT_BUILD_BENCH=OFF
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target weft_fuzz
	fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_TIME) $(FUZZ_TARGETS)

# The claims oracle on N generated programs (seeds from FIRST, after the 400 make test
# runs), in $(JOBS) parts side by side: every complete search must reach what dfs reaches.
N ?= 10000
FIRST ?= 401
# REGIONS=1: every search also runs the programs' atomic regions without preemption.
REGIONS ?= 0
check-claims: build
	@first=$(FIRST); per=$$(( ($(N) + $(JOBS) - 1) / $(JOBS) )); pids=""; \
	for i in $$(seq 0 $$(( $(JOBS) - 1 ))); do \
	  WEFT_ORACLE_FIRST=$$(( first + i * per )) WEFT_ORACLE_COUNT=$$per WEFT_ORACLE_REGIONS=$(REGIONS) \
	    $(BUILD)/bin/claims_oracle_test --gtest_brief=1 > $(BUILD)/check-claims-$$i.log 2>&1 & pids="$$pids $$!"; \
	done; status=0; for p in $$pids; do wait $$p || status=1; done; \
	grep -h "^oracle:" $(BUILD)/check-claims-*.log; \
	if [ $$status -ne 0 ]; then cat $(BUILD)/check-claims-*.log; exit 1; fi

# No false report on a saturated machine: every correct program (programs/pass and
# tests/cli's) under every strategy beside 4 x nproc busy processes (make test runs a
# reduced form).
check-load: build
	WEFT_LOAD_FULL=1 $(BUILD)/bin/load_test

# RUNS weft runs killed at random times by random signals (SIGINT to the group, SIGTERM,
# SIGKILL): no process, no temporary file and no wrong exit status may be left
# (tests/soak/kill_soak.sh; not part of make test).
RUNS ?= 1000
soak: build
	RUNS=$(RUNS) BUILD=$(BUILD) tests/soak/kill_soak.sh

demo: build
	$(BUILD)/bin/weft_demo

# One worker for the benches that measure one search (their ratios are per process);
# weft_jobs_bench measures --jobs.
bench: build
	$(BUILD)/bin/weft_bench
	WEFT_JOBS=1 $(BUILD)/bin/weft_run_bench
	WEFT_JOBS=1 $(BUILD)/bin/weft_strategy_bench
	$(BUILD)/bin/pos_microbench
	WEFT_JOBS=1 $(BUILD)/bin/weft_gambit_bench
	$(BUILD)/bin/weft_jobs_bench
	$(BUILD)/bin/weft_report_bench

# The CLI, the compiler wrappers, headers, libweft.so, the CMake package and weft.pc under
# PREFIX (DESTDIR, when set, is prepended: a staged install).
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(CLANG_BUILD) $(FUZZ_BUILD)
