# Thin wrapper over CMake: the README's two commands are `make run` and `make test`.
# Every target installs missing Debian packages first (scripts/install-deps reads
# deps/debian-packages.txt), so both work on a fresh Debian 12 machine.
BUILD      ?= build
BUILD_TYPE ?= Release
JOBS       ?= $(shell nproc)
ARGS       ?=
CMAKE_GEN  := -G Ninja
FUZZ_SECONDS ?= 10

.PHONY: deps configure build run test test-unit sanitize-configure test-asan test-tsan fuzz bench format tidy tidy-sources clean

deps:
	@scripts/install-deps

configure: deps
	@cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# Starts the daemon with the embedded defaults (or the config the lookup finds); Ctrl-C stops it.
run: build
	./$(BUILD)/flightrec daemon $(ARGS)

# Every test: unit and end-to-end tests, the store under ThreadSanitizer, and the fuzz targets
# replaying their corpora plus a short fresh run each.
test: test-unit test-tsan fuzz

test-unit: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer (CI runs this too),
# but for the tests that measure timing, which a sanitized daemon distorts (the Prometheus burst
# test, frames kept under CPU contention, two daemons' reads compared within a tick), and for the
# three that check files rather than flightrec's code (the dashboards' queries through Prometheus,
# the deployment files, the Kubernetes manifests against their schemas): they run unsanitized in
# `make test`. It is the fuzz targets' build (clang,
# which libFuzzer needs), so CI compiles the tree once for both.
SANITIZE_BUILD := build-fuzz

sanitize-configure: deps
	@cmake -S . -B $(SANITIZE_BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLIGHTREC_BENCH=OFF \
	  -DFLIGHTREC_TESTS=ON -DFLIGHTREC_FUZZ=ON -DFLIGHTREC_SANITIZE='address;undefined;fuzzer-no-link' \
	  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null

test-asan: sanitize-configure
	@cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(SANITIZE_BUILD) --output-on-failure -j $(JOBS) -E '^e2e_(prometheus|contention|fidelity|dashboards|deploy_files|k8s_manifests)$$'

# The components with threads that share data, under ThreadSanitizer.
test-tsan: deps
	@cmake -S . -B build-tsan $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug -DFLIGHTREC_BENCH=OFF \
	  -DFLIGHTREC_SANITIZE=thread >/dev/null
	@cmake --build build-tsan -j $(JOBS) --target test_store test_sampler
	TSAN_OPTIONS=halt_on_error=1 ./build-tsan/tests/store/test_store
	TSAN_OPTIONS=halt_on_error=1 ./build-tsan/tests/sampler/test_sampler

fuzz: sanitize-configure
	@cmake --build $(SANITIZE_BUILD) -j $(JOBS) --target fuzz_targets
	tests/fuzz/run-all $(SANITIZE_BUILD)/tests/fuzz $(FUZZ_SECONDS)

bench: build
	bench/run-all $(BUILD)

format:
	@git ls-files '*.cpp' '*.h' | xargs clang-format -i

# clang-tidy 14 with the root .clang-tidy (tests/.clang-tidy relaxes it for the tests) over every
# project source in the compilation database, but not the sources generated under $(BUILD); any
# finding fails. The database is GCC's: clang is told to pass over GCC-only warning flags.
tidy: configure
	run-clang-tidy-14 -p $(BUILD) -j $(JOBS) -quiet -extra-arg=-Wno-unknown-warning-option \
	  '^$(CURDIR)/(?!$(BUILD)/)'

# The product's sources only (no tests/ or bench/): what CI checks, in about half the time of
# `make tidy` (a test file costs as much to parse as a source file, and tests/.clang-tidy is laxer).
tidy-sources: configure
	run-clang-tidy-14 -p $(BUILD) -j $(JOBS) -quiet -extra-arg=-Wno-unknown-warning-option \
	  '^$(CURDIR)/(?!$(BUILD)/|tests/|bench/)'

clean:
	rm -rf $(BUILD) build-tsan $(SANITIZE_BUILD)
