# jitterscope - kernel jitter diagnostics.  See README.md.
#
#   make            build build/jitterscope
#   make run        measure CPU 1 for 10 s (root)
#   make check      unit tests, then the root integration tests
#   make VMLINUX=host   regenerate vmlinux.h from the running kernel's BTF
#   make static dist deb image   one file to copy: the static binary, its tarball, .deb
#                   and OCI image (docs/INSTALL.md)

CLANG      ?= clang
BPFTOOL    ?= $(or $(shell command -v bpftool 2>/dev/null),/usr/sbin/bpftool)
HOST_ARCH  := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
ARCH       ?= $(HOST_ARCH)
ifneq ($(filter-out x86 arm64,$(ARCH)),)
$(error ARCH=$(ARCH): jitterscope builds for x86 (x86-64) and arm64)
endif
# make ARCH=arm64 on an x86-64 host: a cross build into build-arm64/ with Debian's
# gcc-aarch64-linux-gnu and the arm64 libraries of multiarch (scripts/install-deps.sh);
# make check-arm64 runs its unit tests and a short measurement under qemu-user
ifneq ($(ARCH),$(HOST_ARCH))
OUTPUT     ?= build-$(ARCH)
CROSS_COMPILE ?= $(if $(filter arm64,$(ARCH)),aarch64-linux-gnu-)
PKG_CONFIG_LIBDIR ?= /usr/lib/$(CROSS_COMPILE:-=)/pkgconfig:/usr/share/pkgconfig
export PKG_CONFIG_LIBDIR
ifeq ($(origin CC),default)
CC         := $(CROSS_COMPILE)gcc
endif
ifeq ($(origin AR),default)
AR         := $(CROSS_COMPILE)ar
endif
endif
OUTPUT     ?= build
# the arch's own sources: src/*/*_x86.c or src/*/*_arm64.c (docs/ARCH.md); libcpuid
# reads CPUID, x86 only
OTHER_ARCH := $(filter-out $(ARCH),x86 arm64)
ARCH_PKGS  := $(if $(filter x86,$(ARCH)),libcpuid)
VMLINUX    ?= repo
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
VMLINUX_H  := $(if $(filter host,$(VMLINUX)),$(OUTPUT)/vmlinux/vmlinux.h,bpf/vmlinux/$(ARCH)/vmlinux.h)
CLANG_BPF_SYS_INCLUDES ?= $(shell $(CLANG) -v -E - </dev/null 2>&1 \
	| sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')
BPF_CFLAGS := -g -O2 -Wall -Werror -target bpf -D__TARGET_ARCH_$(ARCH) \
	      -I$(dir $(VMLINUX_H)) -Iinclude $(CLANG_BPF_SYS_INCLUDES)

VERSION  := 0.1.0
CFLAGS   ?= -g -O2
CFLAGS   += -std=gnu11 -Wall -Wextra -Werror -pthread
CPPFLAGS += -D_GNU_SOURCE -DJS_VERSION=\"$(VERSION)\" -Iinclude -I$(OUTPUT) \
	    $(shell pkg-config --cflags libbpf numa $(ARCH_PKGS) libmicrohttpd)
LDLIBS   += $(shell pkg-config --libs libbpf numa $(ARCH_PKGS)) -lelf -lz -lm -pthread -ldl

PREFIX   ?= /usr/local
DESTDIR  ?=
# what make install installs as bin/jitterscope (make deb: the static binary)
INSTALL_BIN ?= $(OUTPUT)/jitterscope

# make static, dist, deb, image (docs/INSTALL.md): one statically linked executable, and the
# tarball, Debian package and OCI image that carry it. Every library is linked in
# (pkg-config --static), but p11-kit, of which Debian ships no static archive: GnuTLS
# (libmicrohttpd's, never used for TLS) gets failing stand-ins from packaging/static-shim.c,
# which also hands out the linked-in libmicrohttpd where out_listen.c asks dlopen for it.
STATIC_BIN    := $(OUTPUT)/static/jitterscope
STATIC_LDLIBS  = -Wl,--wrap=dlopen,--wrap=dlsym,--wrap=dlclose,--wrap=dlerror \
		 $(filter-out -lp11-kit,$(shell pkg-config --static --libs libbpf numa $(ARCH_PKGS) \
		 libmicrohttpd)) -lelf -lz -lm -pthread
DIST_NAME     := jitterscope-$(VERSION)
DIST_TAR      := $(OUTPUT)/$(DIST_NAME)-x86_64.tar.gz
DEB           := $(OUTPUT)/jitterscope_$(VERSION)_amd64.deb
DEB_MAINTAINER ?= jitterscope maintainers <maintainers@users.noreply.a-seed-6dde67aa.example>
# the image's name: contrib/daemonset.yaml runs this one (push it to your registry with
# buildah push, or set IMAGE to your registry's name here and there)
IMAGE         ?= registry.example.com/jitterscope:$(VERSION)
IMAGE_ARCHIVE := $(OUTPUT)/$(DIST_NAME)-oci.tar
BUILDAH       ?= buildah
# the tarball's and the package's file times: the last commit's (reproducible archives)
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || date +%s)

# Every src/*.c and src/FOLDER/*.c but main.c goes into a static library the tests link
# against. Objects are named by the file alone (build/audit_run.o): the prefixes keep the
# names unique, and vpath finds each source in its folder. Every folder holding headers is
# on the include path, so a file moved between folders needs no
# Makefile or #include edit.
SRCS     := $(filter-out %_$(OTHER_ARCH).c,$(wildcard src/*.c src/*/*.c))
SRC_DIRS := $(sort $(dir $(SRCS)))
HDRS     := $(wildcard include/*.h src/*.h src/*/*.h)
HDR_DIRS := $(patsubst %/,%,$(sort $(dir $(wildcard src/*.h src/*/*.h))))
CPPFLAGS += $(addprefix -I,$(HDR_DIRS))
# per-file dependencies: each object on the headers it includes (gcc -MMD -MP: build/X.d)
DEPFLAGS  = -MMD -MP
LIB_OBJS := $(patsubst %.c,$(OUTPUT)/%.o,$(notdir $(filter-out src/main.c,$(SRCS))))
vpath %.c $(SRC_DIRS)
ifneq ($(words $(notdir $(SRCS))),$(words $(sort $(notdir $(SRCS)))))
$(error two sources share a file name; objects are named by the file alone)
endif
BPF_SRCS := $(wildcard bpf/*.bpf.c)
SKELS    := $(patsubst bpf/%.bpf.c,$(OUTPUT)/%.skel.h,$(BPF_SRCS))
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(OUTPUT)/tests/%,$(UNIT_SRCS))
# unit tests that are scripts (no build, no root): the bench harness's helpers, the tests'
# tick rate (tests/lib/kernel_hz.py), the format, the layering (docs/LAYERS.md) and its checker,
# the scale benchmark's driver (build/bench/jsscale, which unit builds), the skips CI allows,
# that every fault make mutants plants still applies
UNIT_SCRIPTS := bench/test_run.py tests/lib/test_kernel_hz.py tests/unit/format_check.sh \
		tests/unit/scale_driver_test.sh \
		tests/unit/check_layers_test.sh tests/unit/layers_check.sh tests/unit/run_tests_retry.sh \
		tests/unit/run_tests_lane.sh \
		tests/unit/skips_allowed.sh tests/unit/mutants_apply.sh tests/unit/cpu1_shield.sh
# test-only helper programs (interference injector ...): tests/tools/NAME.c -> build/tools/NAME
TOOL_SRCS := $(wildcard tests/tools/*.c)
TOOL_BINS := $(patsubst tests/tools/%.c,$(OUTPUT)/tools/%,$(TOOL_SRCS))
# programs showing how an application uses the installed headers: examples/NAME.c ->
# build/examples/NAME; the header also compiles as C++
EXAMPLE_SRCS := $(wildcard examples/*.c)
EXAMPLE_BINS := $(patsubst examples/%.c,$(OUTPUT)/examples/%,$(EXAMPLE_SRCS))
PUBLIC_HDRS := $(wildcard include/jitterscope/*.h)
CXX_CHECKS := $(patsubst include/jitterscope/%.h,$(OUTPUT)/examples/%.h.cxx-ok,$(PUBLIC_HDRS))

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

all: $(OUTPUT)/jitterscope $(TOOL_BINS) $(EXAMPLE_BINS) $(CXX_CHECKS) $(OUTPUT)/bench/jsscale

$(OUTPUT) $(OUTPUT)/vmlinux $(OUTPUT)/tests $(OUTPUT)/tools $(OUTPUT)/examples $(OUTPUT)/static \
$(OUTPUT)/bench:
	$(Q)mkdir -p $@

$(OUTPUT)/vmlinux/vmlinux.h: $(VMLINUX_BTF) | $(OUTPUT)/vmlinux
	$(call msg,GEN,$@)
	$(Q)$(BPFTOOL) btf dump file $< format c > $@.tmp && mv $@.tmp $@

# libbpf-bootstrap's way: clang -> bpftool gen object -> bpftool gen skeleton
$(OUTPUT)/%.bpf.o: bpf/%.bpf.c $(wildcard include/*.h bpf/*.h) \
		   $(VMLINUX_H) | $(OUTPUT)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $(@:.bpf.o=.tmp.bpf.o)
	$(Q)$(BPFTOOL) gen object $@ $(@:.bpf.o=.tmp.bpf.o)

# the raw_tp builds (bpf/tp.h): their object's source with JS_RAW_TP
$(OUTPUT)/probes_raw.bpf.o: bpf/probes.bpf.c
$(OUTPUT)/follow_raw.bpf.o: bpf/follow.bpf.c

$(OUTPUT)/%.skel.h: $(OUTPUT)/%.bpf.o
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

# the skeletons are generated headers: every object waits for them (order only); its .d
# names the headers it really includes (not its source, which vpath finds: a .d naming a
# source moved since would stop make). An object without its .d
# (built before -MMD) is rebuilt once.
DEPFILES := $(patsubst %.o,%.d,$(LIB_OBJS) $(OUTPUT)/main.o)
$(OUTPUT)/%.o: %.c | $(OUTPUT) $(SKELS)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -c $< -o $@
	$(Q)sed -i '1s|: [^ ]*\.c|:|' $(@:.o=.d)
$(filter-out $(patsubst %.d,%.o,$(wildcard $(DEPFILES))),$(LIB_OBJS) $(OUTPUT)/main.o): no-deps-yet
.PHONY: no-deps-yet
no-deps-yet:

$(OUTPUT)/libjitterscope.a: $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# build/jitterscope, and make static's build/static/jitterscope: the same objects, linked
# with the shared libraries or with every library in it (below)
$(OUTPUT)/jitterscope $(STATIC_BIN): $(OUTPUT)/main.o $(OUTPUT)/libjitterscope.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# what the unit tests share (tests/unit/fixtures.h) is linked into every one of them
$(OUTPUT)/tests/fixtures.o: tests/unit/fixtures.c $(wildcard tests/unit/*.h) $(HDRS) | $(OUTPUT)/tests
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/unit -c $< -o $@

$(OUTPUT)/tests/%: tests/unit/%.c $(OUTPUT)/tests/fixtures.o $(OUTPUT)/libjitterscope.a \
		   $(wildcard tests/unit/*.h) | $(OUTPUT)/tests
	$(call msg,TEST,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/unit $< $(OUTPUT)/tests/fixtures.o \
		$(OUTPUT)/libjitterscope.a $(LDLIBS) -lcmocka -o $@

$(OUTPUT)/tools/%: tests/tools/%.c | $(OUTPUT)/tools
	$(call msg,TOOL,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $< -lm -o $@

# the scale benchmark's driver (bench/jsscale.c): the drain's code, fed by simulated CPUs
$(OUTPUT)/bench/jsscale: bench/jsscale.c $(OUTPUT)/libjitterscope.a | $(OUTPUT)/bench
	$(call msg,BENCH,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $< $(OUTPUT)/libjitterscope.a $(LDLIBS) -o $@

# an example is built as an application would: the installed headers only
$(OUTPUT)/examples/%: examples/%.c $(PUBLIC_HDRS) | $(OUTPUT)/examples
	$(call msg,EXAMPLE,$@)
	$(Q)$(CC) $(CFLAGS) -Iinclude $< -o $@

$(OUTPUT)/examples/%.h.cxx-ok: include/jitterscope/%.h | $(OUTPUT)/examples
	$(call msg,CXX,$<)
	$(Q)echo '#include "jitterscope/$*.h"' | $(CXX) -x c++ -std=c++11 -Wall -Wextra -Werror \
		-fsyntax-only -Iinclude - && touch $@

unit: $(UNIT_BINS) $(EXAMPLE_BINS) $(TOOL_BINS) $(OUTPUT)/bench/jsscale
	$(Q)scripts/run-tests.sh unit $(UNIT_BINS) $(UNIT_SCRIPTS)

integration: all
	$(Q)scripts/run-tests.sh integration tests/integration/*.sh

# make check-arm64: the aarch64 cross build (its binary and unit tests only, not the tools)
# and its tests under qemu-user: scripts/check-arm64.sh (make check runs it too:
# tests/integration/arm64_qemu.sh). ARM64_CFLAGS, not -g -O2: no debugger reads it, and -O1
# compiles in half the time with -Werror's flow warnings still on (docs/ARCH.md); make
# ARCH=arm64 builds as usual. ARM64_READY: an x86-64 host has its cross compiler and arm64
# libraries (scripts/install-deps.sh; arm64_qemu.sh names what is missing)
ARM64_OUTPUT ?= build-arm64
ARM64_CC ?= aarch64-linux-gnu-gcc
ARM64_CFLAGS ?= -O1
ARM64_READY := $(and $(filter x86,$(HOST_ARCH)),$(filter x86,$(ARCH)),\
	$(shell command -v $(ARM64_CC)),$(wildcard /usr/lib/aarch64-linux-gnu/pkgconfig/libbpf.pc),\
	$(wildcard /usr/lib/aarch64-linux-gnu/libcmocka.so))

# the README's test command: every test, unit then integration (root); check-build is what
# it builds first, on every core (make check without -j asks for them), the aarch64 tree
# included where ARM64_READY (about 30 s more on 2 cores; built by arm64_qemu.sh in the lane,
# on CPU 0 beside the measuring tests, it was 80-90 s of the lane's part that the tests after
# the lane wait for: docs/HACKING.md). The fuzzers are not in it: robust_fuzz.sh builds them
# in the lane. The VM kernels' cache is filled in the background as the tests start
# (tests/vm/vm.py prime, on CPU 0, its log in test-logs/vm-prime.log: a fresh machine's
# download takes a minute or more; vm_kernels.sh runs beside the late tests, must not write
# to the disk then, and waits on the cache's lock if prime is still at it; offline,
# vm_kernels.sh says what it lacks). The tests that do not measure CPU 1 run meanwhile in a
# second lane on CPU 0 (JS_LANE=0: none, every test one by one; scripts/run-tests.sh)
check-build: all $(UNIT_BINS) $(EXAMPLE_BINS) $(OUTPUT)/bench/jsscale \
	$(if $(ARM64_READY),check-arm64-build)

check:
	$(Q)$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc)) check-build
	$(Q)if command -v qemu-system-x86_64 >/dev/null 2>&1 && [ "$$(id -u)" -eq 0 ]; then \
		mkdir -p $(OUTPUT)/test-logs; taskset -c 0 nice -n 19 python3 tests/vm/vm.py prime \
		>$(OUTPUT)/test-logs/vm-prime.log 2>&1 </dev/null & fi
	$(Q)JS_LANE=$${JS_LANE:-1} scripts/run-tests.sh all $(UNIT_BINS) $(UNIT_SCRIPTS) tests/integration/*.sh

check-arm64: check-arm64-build
	$(Q)scripts/check-arm64.sh $(ARM64_OUTPUT)

check-arm64-build:
	$(Q)CFLAGS='$(ARM64_CFLAGS)' $(MAKE) --no-print-directory ARCH=arm64 OUTPUT=$(ARM64_OUTPUT) \
		$(ARM64_OUTPUT)/jitterscope \
		$(patsubst tests/unit/%.c,$(ARM64_OUTPUT)/tests/%,$(UNIT_SRCS)) \
		$(ARM64_OUTPUT)/tools/thread_probe

# make check-kernels: jitterscope on Debian's kernels booted under QEMU (tests/vm/README.md):
# the whole matrix, arm64 included, rewriting docs/KERNELS.md (root, about 5-15 minutes under
# TCG; make check runs two of its kernels: tests/integration/vm_kernels.sh)
check-kernels: all
	$(Q)python3 tests/vm/matrix.py --plan deb12 --write docs/KERNELS.md $(KERNELS_ARGS)

run: $(OUTPUT)/jitterscope
	$(OUTPUT)/jitterscope --cpu 1 --duration 10

vmlinux: $(OUTPUT)/vmlinux/vmlinux.h
	cp $< bpf/vmlinux/$(ARCH)/vmlinux.h

install: $(INSTALL_BIN)
	install -D -m 0755 $(INSTALL_BIN) $(DESTDIR)$(PREFIX)/bin/jitterscope
	$(if $(wildcard docs/jitterscope.8),install -D -m 0644 docs/jitterscope.8 $(DESTDIR)$(PREFIX)/share/man/man8/jitterscope.8)
	install -D -m 0644 -t $(DESTDIR)$(PREFIX)/include/jitterscope $(PUBLIC_HDRS)
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	$(INSTALL_BIN) --completion bash >$(DESTDIR)$(PREFIX)/share/bash-completion/completions/jitterscope
	chmod 0644 $(DESTDIR)$(PREFIX)/share/bash-completion/completions/jitterscope
	install -D -m 0644 docs/FLEET.md $(DESTDIR)$(PREFIX)/share/doc/jitterscope/FLEET.md
	install -D -m 0755 scripts/capture-sysroot.sh $(DESTDIR)$(PREFIX)/bin/jitterscope-capture-sysroot

clean:
	rm -rf $(OUTPUT)

# the C sources in the kernel's style (.clang-format); make check runs format-check too
format:
	scripts/format.sh --fix

format-check:
	scripts/format.sh --check

# src/'s includes, and its objects' calls (nm), against docs/LAYERS.md's rules (make check
# runs it: tests/unit/layers_check.sh; exit 77, a skip, while src/ is still flat)
layers-check: $(LIB_OBJS) $(OUTPUT)/main.o
	NM=$(CROSS_COMPILE)nm scripts/check-layers.py --objdir $(OUTPUT) || [ $$? -eq 77 ]

.PHONY: all unit integration check check-build check-arm64 check-arm64-build check-kernels run vmlinux install clean format format-check layers-check

# ---- one file to copy (docs/INSTALL.md) -------------------------------------------------------
#   make static   build/static/jitterscope: statically linked (no interpreter, no NEEDED)
#   make dist     build/jitterscope-VERSION-x86_64.tar.gz: it, man page, README, docs, contrib
#   make deb      build/jitterscope_VERSION_amd64.deb (dpkg-deb): it in /usr/bin, no Depends
#   make image    the OCI image IMAGE, FROM scratch (contrib/Containerfile), in buildah's
#                 store, and build/jitterscope-VERSION-oci.tar (BUILDAH: the command, e.g.
#                 with --root/--storage-driver)
# The static link is build/jitterscope's rule on build/jitterscope's objects (what the tests
# run is what ships), with the libraries' static archives, the shim, and no debug info (-S:
# the symbols stay, for perf and gdb backtraces).
static: $(STATIC_BIN)

$(STATIC_BIN): private LDFLAGS += -static -Wl,-S
$(STATIC_BIN): private LDLIBS = $(STATIC_LDLIBS)
$(STATIC_BIN): $(OUTPUT)/static-shim.o | $(OUTPUT)/static

vpath static-shim.c packaging
$(OUTPUT)/static-shim.o: private CPPFLAGS += $(shell pkg-config --cflags p11-kit-1)

DIST_DIR := $(OUTPUT)/dist/$(DIST_NAME)
dist: $(DIST_TAR)

$(DIST_TAR): $(STATIC_BIN) README.md $(wildcard CHANGELOG.md LICENSE* COPYING*) \
	     $(wildcard docs/* contrib/*) scripts/capture-sysroot.sh packaging/copyright
	$(call msg,DIST,$@)
	$(Q)rm -rf $(OUTPUT)/dist && mkdir -p $(DIST_DIR)/scripts
	$(Q)cp -p $(STATIC_BIN) README.md $(wildcard CHANGELOG.md LICENSE* COPYING*) \
		packaging/copyright $(DIST_DIR)/
	$(Q)cp -pR docs contrib $(DIST_DIR)/
	$(Q)cp -p scripts/capture-sysroot.sh $(DIST_DIR)/scripts/
	$(Q)tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@$(SOURCE_DATE_EPOCH) \
		-C $(OUTPUT)/dist -cf - $(DIST_NAME) | gzip -9n >$@.tmp && mv $@.tmp $@

# The package: make install's files (PREFIX=/usr, the static binary), the man page
# gzipped, the docs and a copyright file in /usr/share/doc/jitterscope, the systemd unit
# (not enabled: its CPUs are the machine's to choose) with the package's paths, and
# scripts/capture-sysroot.sh as jitterscope-capture-sysroot. Built-Using names the source
# packages linked in (packaging/built-using.sh): a fix in one of them needs a rebuild.
DEB_ROOT := $(OUTPUT)/deb/root
DEB_DOC  := $(DEB_ROOT)/usr/share/doc/jitterscope
deb: $(DEB)

$(DEB): $(STATIC_BIN) $(PUBLIC_HDRS) docs/jitterscope.8 README.md CHANGELOG.md $(wildcard docs/*.md) \
	$(wildcard contrib/*) scripts/capture-sysroot.sh packaging/copyright packaging/deb-control \
	packaging/built-using.sh
	$(call msg,DEB,$@)
	$(Q)rm -rf $(OUTPUT)/deb
	$(Q)$(MAKE) -s --no-print-directory install PREFIX=/usr DESTDIR=$(abspath $(DEB_ROOT)) \
		INSTALL_BIN=$(STATIC_BIN)
	$(Q)gzip -9n $(DEB_ROOT)/usr/share/man/man8/jitterscope.8
	$(Q)install -D -m 0755 scripts/capture-sysroot.sh $(DEB_ROOT)/usr/bin/jitterscope-capture-sysroot
	$(Q)install -d $(DEB_DOC)/contrib $(DEB_ROOT)/lib/systemd/system $(DEB_ROOT)/DEBIAN
	$(Q)install -m 0644 README.md docs/*.md packaging/copyright $(DEB_DOC)/
	$(Q)gzip -9n <CHANGELOG.md >$(DEB_DOC)/changelog.gz
	$(Q)install -m 0644 $(filter-out contrib/jitterscope.service,$(wildcard contrib/*)) \
		$(DEB_DOC)/contrib/
	$(Q)sed -e 's|/usr/local/bin/jitterscope|/usr/bin/jitterscope|' \
		-e 's|/usr/local/share/doc/jitterscope|/usr/share/doc/jitterscope|' \
		-e 's|^# docs/FLEET.md. Install: .*|# docs/FLEET.md. Installed by the jitterscope package, not enabled:|' \
		-e 's|^# systemctl daemon-reload; systemctl enable --now jitterscope.|# systemctl enable --now jitterscope, after choosing the CPUs (below).|' \
		contrib/jitterscope.service >$(DEB_ROOT)/lib/systemd/system/jitterscope.service
	$(Q)CC='$(CC)' packaging/built-using.sh $(STATIC_LDLIBS) >$(OUTPUT)/deb/built-using
	$(Q)sed -e 's|@VERSION@|$(VERSION)|' -e 's|@MAINTAINER@|$(DEB_MAINTAINER)|' \
		-e "s|@SIZE@|$$(du -sk --exclude=DEBIAN $(DEB_ROOT) | cut -f1)|" \
		-e "s|@BUILT_USING@|$$(cat $(OUTPUT)/deb/built-using)|" \
		packaging/deb-control >$(DEB_ROOT)/DEBIAN/control
	$(Q)cd $(DEB_ROOT) && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | \
		xargs -0 md5sum >DEBIAN/md5sums
	$(Q)find $(DEB_ROOT) -exec touch -h -d @$(SOURCE_DATE_EPOCH) {} +
	$(Q)dpkg-deb --root-owner-group -Zxz -z1 --build $(DEB_ROOT) $@.tmp >/dev/null && mv $@.tmp $@

image: $(STATIC_BIN) contrib/Containerfile
	$(call msg,IMAGE,$(IMAGE))
	$(Q)$(BUILDAH) build --quiet --isolation chroot --timestamp $(SOURCE_DATE_EPOCH) \
		--build-arg VERSION=$(VERSION) -f contrib/Containerfile -t $(IMAGE) $(dir $(STATIC_BIN)) >/dev/null
	$(Q)rm -f $(IMAGE_ARCHIVE) && $(BUILDAH) push --quiet $(IMAGE) oci-archive:$(IMAGE_ARCHIVE):$(IMAGE)
	$(call msg,OCI,$(IMAGE_ARCHIVE))

.PHONY: static dist deb image
.DELETE_ON_ERROR:
.SECONDARY:

# benchmarks against oslat and against itself (root, several minutes): prints a table of ratios
# and rewrites docs/BENCHMARKS.md; see bench/run.py --help
bench: all
	scripts/cpu1-lock python3 bench/run.py $(BENCH_ARGS)

# the redis section alone (redis-server and redis-tools: scripts/install-deps.sh), printed,
# docs/BENCHMARKS.md left as it is
bench-redis: all
	scripts/cpu1-lock python3 bench/run.py --only redis --no-write --details $(BENCH_ARGS)

# the scale section alone (simulated CPUs, no root, CPU 1 untouched: the driver runs on the
# housekeeping CPU), printed, docs/BENCHMARKS.md left as it is
bench-scale: $(OUTPUT)/bench/jsscale
	taskset -c 0 python3 bench/run.py --only scale --no-write --details $(BENCH_ARGS)

.PHONY: bench bench-redis bench-scale

# ---- robustness (docs/ROBUSTNESS.md): sanitizers, valgrind, fuzzing, soak --------------------
#   make asan        library, unit tests and binary with ASan+UBSan in build-asan/, unit tests
#                    run; then the integration tests against that binary (JS_BIN, root) and
#                    that test_hlog (JS_TEST_HLOG, hdr_interop.sh)
#   make valgrind    unit tests under valgrind --error-exitcode=1 (VALGRIND_SKIP: slow ones)
#   make fuzz        libFuzzer target per parser (tests/fuzz/), FUZZ_SECS each (default 20)
#   make soak        a SOAK_SECS (default 600) continuous-mode run, RSS sampled and asserted flat
#   make soak-short  its one-minute fixed-length version (soaks are not in make check: its
#                    ten minutes go to what fails fast)
ASAN_OUTPUT  ?= build-asan
ASAN_CFLAGS  ?= -g -O1 -fsanitize=address,undefined -fno-omit-frame-pointer \
		-fno-sanitize-recover=undefined -std=gnu11 -Wall -Wextra -pthread
ASAN_ENV     := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# every integration test but the fuzzers and the
# static binary's and packages' tests (they run make static's binary, not JS_BIN)
ASAN_TESTS   ?= $(filter-out %/robust_fuzz.sh %/dist_static.sh \
		%/dist_tar.sh %/dist_deb.sh %/dist_image.sh, \
		$(wildcard tests/integration/*.sh))
VALGRIND_SKIP ?= test_probes_live test_follow_live test_out_hlog test_arrival test_clockcost
FUZZ_OUTPUT  ?= build-fuzz
FUZZ_SECS    ?= 20
# make fuzz's optimisation (libFuzzer's advice: -O1, for executions a second); make check's
# robust_fuzz.sh, a fixed 2000 runs a target, builds apart at -O0 -g1: 40 % less compiling
FUZZ_OPT     ?= -g -O1
FUZZ_CFLAGS  := $(FUZZ_OPT) -fsanitize=fuzzer-no-link,address,undefined \
		-fno-sanitize-recover=undefined -fno-omit-frame-pointer -std=gnu11 -pthread -w
FUZZ_SRCS    := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS    := $(patsubst tests/fuzz/%.c,$(FUZZ_OUTPUT)/%,$(FUZZ_SRCS))
FUZZ_OBJS    := $(patsubst %.c,$(FUZZ_OUTPUT)/obj/%.o,$(notdir $(filter-out src/main.c,$(SRCS))))
SOAK_SECS    ?= 600

asan: all
	$(Q)$(MAKE) --no-print-directory OUTPUT=$(ASAN_OUTPUT) CFLAGS='$(ASAN_CFLAGS)' \
		$(ASAN_OUTPUT)/jitterscope $(patsubst $(OUTPUT)/%,$(ASAN_OUTPUT)/%,$(UNIT_BINS))
	$(Q)$(ASAN_ENV) scripts/run-tests.sh unit \
		$(patsubst $(OUTPUT)/%,$(ASAN_OUTPUT)/%,$(UNIT_BINS))
	$(Q)$(ASAN_ENV) JS_BIN=$(CURDIR)/$(ASAN_OUTPUT)/jitterscope \
		JS_TEST_HLOG=$(CURDIR)/$(ASAN_OUTPUT)/tests/test_hlog \
		scripts/run-tests.sh integration $(ASAN_TESTS)

valgrind: $(UNIT_BINS)
	$(Q)scripts/valgrind-unit.sh $(filter-out $(addprefix $(OUTPUT)/tests/,$(VALGRIND_SKIP)), \
		$(UNIT_BINS))

$(FUZZ_OUTPUT)/obj:
	$(Q)mkdir -p $@

$(FUZZ_OUTPUT)/obj/%.o: %.c $(HDRS) $(SKELS) | $(FUZZ_OUTPUT)/obj
	$(call msg,FUZZCC,$@)
	$(Q)$(CLANG) $(CPPFLAGS) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_OUTPUT)/libjitterscope.a: $(FUZZ_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(FUZZ_OUTPUT)/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) $(FUZZ_OUTPUT)/libjitterscope.a
	$(call msg,FUZZ,$@)
	$(Q)$(CLANG) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< \
		$(FUZZ_OUTPUT)/libjitterscope.a $(LDLIBS) -o $@

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	$(Q)scripts/fuzz.sh $(FUZZ_SECS) $(FUZZ_BINS)

soak: all
	$(Q)SOAK_CONTINUOUS=1 scripts/cpu1-lock scripts/soak.sh $(SOAK_SECS)

soak-short: all
	$(Q)scripts/cpu1-lock scripts/soak.sh 60 10 1024

.PHONY: asan valgrind fuzz fuzz-build soak soak-short

# deliberate faults, each built into a copy of the tree, and the tests that must catch them
# (root, about 30 minutes: each killer 3 times; tests/mutants/mutants.py --list names them)
mutants: all $(UNIT_BINS)
	$(Q)scripts/cpu1-lock python3 tests/mutants/mutants.py $(MUTANTS_ARGS)

.PHONY: mutants

# the headers each object includes, from its last build (-MMD -MP)
include $(wildcard $(DEPFILES))
