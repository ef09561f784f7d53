# cuzk: top-level entry points. CMake does the building underneath.
#   make          install missing dependencies, build everything into build/
#   make test     build, then run the whole suite (also under ASan/UBSan)
#   make demo     build, then prove and verify the bundled example
#   make bench    build, then run the CPU benchmarks
#   make install  [PREFIX=/usr/local] [DESTDIR=...]: programs, libraries,
#                 headers, cuzk.pc, cuzkd's config and unit (docs/INSTALL.md)
#   make uninstall  remove what the last install put down (its manifest)
BUILD      ?= build
BUILD_SAN  ?= build-san
JOBS       ?= $(shell nproc)
CMAKE_ARGS ?=
PREFIX     ?= /usr/local

.PHONY: all setup configure test test-fast test-san demo bench install uninstall clean

all: configure
	cmake --build $(BUILD) -j $(JOBS)

setup:
	@scripts/setup.sh --check || scripts/setup.sh

configure: setup
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_ARGS) >/dev/null

test: all test-fast test-san

test-fast: all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Sanitizer pass: the suite rebuilt with ASan + UBSan, slow tests excluded.
# It builds the CUDA backend over the host model of the device
# (src/backend/gpu_model.c), so the GPU tests and every program's GPU path
# run here too, without a GPU.
test-san: setup
	@cmake -S . -B $(BUILD_SAN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUZK_SANITIZE=address,undefined -DCUZK_CUDA=MODEL $(CMAKE_ARGS) >/dev/null
	cmake --build $(BUILD_SAN) -j $(JOBS)
	cd $(BUILD_SAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 CZ_TEST_SCALE=0.25 \
		ctest --output-on-failure -j $(JOBS) -LE slow

demo: all
	scripts/demo.sh $(BUILD)

bench: all
	$(BUILD)/bin/bench-core

# DESTDIR (from the command line or the environment) stages the tree for
# packaging; cmake --install reads it from the environment.
install: all
	DESTDIR=$(DESTDIR) cmake --install $(BUILD)

uninstall:
	@test -f $(BUILD)/install_manifest.txt || { echo "uninstall: no $(BUILD)/install_manifest.txt (nothing installed from this build)"; exit 1; }
	sed 's|^|$(DESTDIR)|' $(BUILD)/install_manifest.txt | xargs -d '\n' rm -f
	@echo "uninstall: removed the files of $(BUILD)/install_manifest.txt"

clean:
	rm -rf $(BUILD) $(BUILD_SAN)
