# Makefile - the two commands of the README: `make demo` and `make test`.
# Both install missing Debian packages first (scripts/deps.sh), then build with CMake.

JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
BUILD     ?= build
ASAN      ?= build-asan
FUZZ      ?= build-fuzz
FUZZ_SECS ?= 4
CMAKE_FLAGS ?=

.PHONY: all deps build build-asan build-fuzz demo test test-normal test-asan fuzz format format-check clean install

all: build

deps:
	@sh scripts/deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

build-asan: deps
	cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Debug -DAUGUR_SANITIZE=ON -DAUGUR_WITH_CUDA=OFF $(CMAKE_FLAGS) >/dev/null
	cmake --build $(ASAN) -j $(JOBS)

build-fuzz: deps
	CC=clang-14 cmake -S . -B $(FUZZ) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAUGUR_FUZZ=ON \
	    -DAUGUR_WITH_OPENMP=OFF -DAUGUR_WITH_CUDA=OFF $(CMAKE_FLAGS) >/dev/null
	cmake --build $(FUZZ) -j $(JOBS) --target fuzzers

# The main job, as far as it goes today, on the bundled sample kernel and real
# dataset: what the data is, the kernel's skeleton, and its run through this
# machine's simulated caches with two OpenMP threads. This machine's model is
# measured once by 'augur calibrate --quick' and kept per kind of host in the
# user's cache folder (--machine auto: docs/cli/calibrate.md).
DEMO_KERNEL  = samples/spmv.c
DEMO_DATA    = samples/walshaw_fe_4elt2.mtx
DEMO_MACHINE = auto
demo: build
	./$(BUILD)/augur data info $(DEMO_DATA)
	@echo
	./$(BUILD)/augur skeleton $(DEMO_KERNEL)
	@echo
	./$(BUILD)/augur predict $(DEMO_KERNEL) --data $(DEMO_DATA) --machine $(DEMO_MACHINE) --threads 2 --measure
	@echo
	@sh scripts/demo-context.sh ./$(BUILD)/augur

# The binary, the library and headers, the shipped data (share/augur), the man
# pages and augur.pc under PREFIX; the installed binary finds its data there.
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# Every test: format check, the suite on a normal build (ctest) and on an
# ASan+UBSan build (prove), then a short fuzz run of every parser.
test: format-check test-normal test-asan fuzz

test-normal: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan: build-asan
	AUGUR_BUILD=$(ASAN) prove -j $(JOBS) --exec 'sh tests/prove-exec' $(ASAN)/t_* tests/t_*.sh

fuzz: build-fuzz
	sh tests/fuzz/run.sh $(FUZZ) $(FUZZ_SECS)

format:
	clang-format-14 -i $$(git ls-files '*.c' '*.h')

format-check:
	clang-format-14 --dry-run -Werror $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) $(ASAN) $(FUZZ)
