# The short commands. The build itself is CMake + Ninja (CMakeLists.txt); tests run under CTest.
#
#   make            build (build/)
#   make demo       install missing build deps, build, run the tour on examples/
#   make check      install missing test deps, build, run every test; then again under ASan+UBSan
#   make bench      quick benchmarks against perf and bpftrace (FULL=1: the whole suite)
#   make fuzz       run every libFuzzer target for longer (FUZZ_SECONDS=60 each)
#   make fuzz-long  the same for an hour each (FUZZ_LONG_SECONDS=3600): overnight, before a release
#   make deb        the Debian packages (debian/), into $(BUILD)/deb (dpkg-buildpackage -us -uc -b)
#   make check-deb  the packages installed into a clean Debian 12 root and tried there
#   make install    PREFIX=/usr/local DESTDIR= (binary, libsdtrace.so/.a, headers, pkg-config,
#                   provider type files, man pages, bash completion)
#   make uninstall
#   make clean

BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_LONG_SECONDS ?= 3600
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc)
PREFIX ?= /usr/local

.PHONY: install uninstall all build tools-check deps-build deps-test deps-bench deps-deb deb deb-symbols \
	check-deb demo check check-normal check-asan \
	fuzz-smoke bench fuzz fuzz-long clean

all: build

deps-build:
	@sh scripts/install-deps.sh build
deps-test:
	@sh scripts/install-deps.sh test
deps-bench:
	@sh scripts/install-deps.sh bench
deps-deb:
	@sh scripts/install-deps.sh deb

# The packages are built in a copy of the tree under $(BUILD)/deb/sdtrace, so that they land in
# $(BUILD)/deb and not beside the checkout.
DEB_DIR ?= $(BUILD)/deb
deb: deps-deb
	@bash scripts/build-deb.sh $(DEB_DIR) -j$(JOBS)

# The packages installed into a clean Debian 12 root (debootstrapped once into $(BUILD)/deb-root)
# and tried there: scripts/check-deb.sh says what.
check-deb: deb
	@bash scripts/check-deb.sh $(BUILD)

# debian/libsdtrace0.symbols again from the library of the last `make deb` (after adding or
# removing exported symbols; the build shows the difference). From scratch (-I/dev/null): a symbol
# gone from the library leaves the file too.
deb-symbols:
	cd $(DEB_DIR)/sdtrace && dpkg-gensymbols -q -plibsdtrace0 -Pdebian/libsdtrace0 -I/dev/null \
		-v$$(dpkg-parsechangelog -S Version) -O -c0 | { read -r head; echo "$$head"; \
		echo '* Build-Depends-Package: libsdtrace-dev'; grep -v '^\*'; } \
		> $(CURDIR)/debian/libsdtrace0.symbols

# A fresh machine: one line saying what to run, before CMake's own errors (CMakeLists.txt says
# the same for a missing library).
NEED_TOOLS = cmake ninja pkg-config
tools-check:
	@for t in $(NEED_TOOLS); do command -v $$t >/dev/null 2>&1 || { \
		echo "sdtrace: missing build tool '$$t': run scripts/install-deps.sh build (as root, on Debian), or 'make demo' (installs them, builds, runs the tour)" >&2; \
		exit 1; }; done

$(BUILD)/build.ninja: | tools-check
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS)

build: $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

demo: deps-build
	@$(MAKE) --no-print-directory build
	@sh scripts/demo.sh $(BUILD)

check: deps-test
	@$(MAKE) --no-print-directory check-normal check-asan fuzz-smoke

check-normal: build
	cd $(BUILD) && ctest --output-on-failure --no-tests=error -j $(JOBS)

$(ASAN_BUILD)/build.ninja:
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSDTRACE_SANITIZE=ON \
		$(CMAKE_FLAGS)

# The unit and end-to-end tests again, every binary built with AddressSanitizer and UBSan;
# any report fails the run.
check-asan: $(ASAN_BUILD)/build.ninja
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --output-on-failure --no-tests=error -j $(JOBS)

$(FUZZ_BUILD)/build.ninja:
	CC=clang cmake -S . -B $(FUZZ_BUILD) -G Ninja -DSDTRACE_FUZZ=ON -DSDTRACE_TESTS=OFF \
		$(CMAKE_FLAGS)

# A short run of every fuzz target over its seed corpus (the long runs are `make fuzz`).
fuzz-smoke: $(FUZZ_BUILD)/build.ninja
	cmake --build $(FUZZ_BUILD) -j $(JOBS)
	@sh fuzz/run.sh $(FUZZ_BUILD) 10

fuzz: deps-test $(FUZZ_BUILD)/build.ninja
	cmake --build $(FUZZ_BUILD) -j $(JOBS)
	@sh fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

# The long runs: an hour per target (9 targets: 9 hours), the same runner and corpora.
fuzz-long: deps-test $(FUZZ_BUILD)/build.ninja
	cmake --build $(FUZZ_BUILD) -j $(JOBS)
	@sh fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_LONG_SECONDS)

bench: deps-bench
	@$(MAKE) --no-print-directory build
	@sh bench/run.sh $(BUILD) $(if $(FULL),full,quick)

# The prefix is also compiled in (where the shipped provider type files are): configure with it.
install: $(BUILD)/build.ninja
	cmake -S . -B $(BUILD) -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)
	cmake --install $(BUILD)

# Removes what `make install` installed with the same PREFIX and DESTDIR (CMake's manifest).
uninstall:
	@test -f $(BUILD)/install_manifest.txt || { echo "nothing installed from $(BUILD)"; exit 1; }
	@while read -r f || [ -n "$$f" ]; do rm -f "$(DESTDIR)$$f" && echo "removed $(DESTDIR)$$f"; done < $(BUILD)/install_manifest.txt
	@# and the directories of sdtrace's own (include/sdtrace, share/sdtrace/...) once empty
	@sed -n 's|/[^/]*$$||p' $(BUILD)/install_manifest.txt | grep '/sdtrace\(/\|$$\)' | sort -ru | \
		while read -r d; do \
			while case $$d in */sdtrace|*/sdtrace/*) true;; *) false;; esac && \
				rmdir "$(DESTDIR)$$d" 2>/dev/null; do d=$${d%/*}; done; \
		done

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
