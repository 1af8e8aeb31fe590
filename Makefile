# jitterscope - kernel jitter diagnostics.  See README.md.
#
#   make            build build/jitterscope
#   make run        measure CPU 1 for 10 s (root)
#   make check      unit tests, then the root integration tests
#   make VMLINUX=host   regenerate vmlinux.h from the running kernel's BTF

OUTPUT     ?= build
CLANG      ?= clang
BPFTOOL    ?= $(or $(shell command -v bpftool 2>/dev/null),/usr/sbin/bpftool)
ARCH       ?= $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
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
	    $(shell pkg-config --cflags libbpf numa libcpuid libmicrohttpd)
LDLIBS   += $(shell pkg-config --libs libbpf numa libcpuid) -lelf -lz -lm -pthread -ldl

PREFIX   ?= /usr/local
DESTDIR  ?=

# Every src/*.c and src/WING/*.c but main.c goes into a static library the tests link
# against. Objects are named by the file alone (build/audit_run.o): the prefixes keep the
# names unique, and vpath finds each source in its folder.
SRCS     := $(wildcard src/*.c src/*/*.c)
SRC_DIRS := $(sort $(dir $(SRCS)))
HDRS     := $(wildcard include/*.h src/*.h src/*/*.h)
LIB_OBJS := $(patsubst %.c,$(OUTPUT)/%.o,$(notdir $(filter-out src/main.c,$(SRCS))))
vpath %.c $(SRC_DIRS)
ifneq ($(words $(notdir $(SRCS))),$(words $(sort $(notdir $(SRCS)))))
$(error two sources share a file name; objects are named by the file alone)
endif
BPF_SRCS := $(wildcard bpf/*.bpf.c)
SKELS    := $(patsubst bpf/%.bpf.c,$(OUTPUT)/%.skel.h,$(BPF_SRCS))
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(OUTPUT)/tests/%,$(UNIT_SRCS))
# unit tests that are scripts (no build, no root): bench/run.py's analysis helpers
UNIT_SCRIPTS := bench/test_run.py tests/unit/format_check.sh
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

all: $(OUTPUT)/jitterscope $(TOOL_BINS) $(EXAMPLE_BINS) $(CXX_CHECKS)

$(OUTPUT) $(OUTPUT)/vmlinux $(OUTPUT)/tests $(OUTPUT)/tools $(OUTPUT)/examples:
	$(Q)mkdir -p $@

$(OUTPUT)/vmlinux/vmlinux.h: $(VMLINUX_BTF) | $(OUTPUT)/vmlinux
	$(call msg,GEN,$@)
	$(Q)$(BPFTOOL) btf dump file $< format c > $@.tmp && mv $@.tmp $@

# libbpf-bootstrap's way: clang -> bpftool gen object -> bpftool gen skeleton
$(OUTPUT)/%.bpf.o: bpf/%.bpf.c include/js_events.h include/js_follow_events.h $(wildcard bpf/*.h) \
		   $(VMLINUX_H) | $(OUTPUT)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $(@:.bpf.o=.tmp.bpf.o)
	$(Q)$(BPFTOOL) gen object $@ $(@:.bpf.o=.tmp.bpf.o)

$(OUTPUT)/%.skel.h: $(OUTPUT)/%.bpf.o
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

$(OUTPUT)/%.o: %.c $(HDRS) $(SKELS) | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(OUTPUT)/libjitterscope.a: $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(OUTPUT)/jitterscope: $(OUTPUT)/main.o $(OUTPUT)/libjitterscope.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

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

# an example is built as an application would: the installed headers only
$(OUTPUT)/examples/%: examples/%.c $(PUBLIC_HDRS) | $(OUTPUT)/examples
	$(call msg,EXAMPLE,$@)
	$(Q)$(CC) $(CFLAGS) -Iinclude $< -o $@

$(OUTPUT)/examples/%.h.cxx-ok: include/jitterscope/%.h | $(OUTPUT)/examples
	$(call msg,CXX,$<)
	$(Q)echo '#include "jitterscope/$*.h"' | $(CXX) -x c++ -std=c++11 -Wall -Wextra -Werror \
		-fsyntax-only -Iinclude - && touch $@

unit: $(UNIT_BINS) $(EXAMPLE_BINS) $(TOOL_BINS)
	$(Q)scripts/run-tests.sh unit $(UNIT_BINS) $(UNIT_SCRIPTS)

integration: all
	$(Q)scripts/run-tests.sh integration tests/integration/*.sh

# the README's test command: every test, unit then integration (root)
check: all $(UNIT_BINS) $(EXAMPLE_BINS)
	$(Q)scripts/run-tests.sh all $(UNIT_BINS) $(UNIT_SCRIPTS) tests/integration/*.sh

run: $(OUTPUT)/jitterscope
	$(OUTPUT)/jitterscope --cpu 1 --duration 10

vmlinux: $(OUTPUT)/vmlinux/vmlinux.h
	cp $< bpf/vmlinux/$(ARCH)/vmlinux.h

install: $(OUTPUT)/jitterscope
	install -D -m 0755 $(OUTPUT)/jitterscope $(DESTDIR)$(PREFIX)/bin/jitterscope
	$(if $(wildcard docs/jitterscope.8),install -D -m 0644 docs/jitterscope.8 $(DESTDIR)$(PREFIX)/share/man/man8/jitterscope.8)
	install -D -m 0644 -t $(DESTDIR)$(PREFIX)/include/jitterscope $(PUBLIC_HDRS)

clean:
	rm -rf $(OUTPUT)

# the C sources in the kernel's style (.clang-format); make check runs format-check too
format:
	scripts/format.sh --fix

format-check:
	scripts/format.sh --check

.PHONY: all unit integration check run vmlinux install clean format format-check
.DELETE_ON_ERROR:
.SECONDARY:

# benchmarks against oslat and against itself (root, several minutes): prints a table of ratios
# and rewrites docs/BENCHMARKS.md; see bench/run.py --help
bench: all
	scripts/cpu1-lock python3 bench/run.py $(BENCH_ARGS)

.PHONY: bench

# ---- robustness (docs/ROBUSTNESS.md): sanitizers, valgrind, fuzzing, soak --------------------
#   make asan        library, unit tests and binary with ASan+UBSan in build-asan/, unit tests
#                    run; then the integration tests against that binary (JS_BIN, root) and
#                    that test_hlog (JS_TEST_HLOG, hdr_interop.sh)
#   make valgrind    unit tests under valgrind --error-exitcode=1 (VALGRIND_SKIP: slow ones)
#   make fuzz        libFuzzer target per parser (tests/fuzz/), FUZZ_SECS each (default 20)
#   make soak        a SOAK_SECS (default 600) continuous-mode run, RSS sampled and asserted flat
ASAN_OUTPUT  ?= build-asan
ASAN_CFLAGS  ?= -g -O1 -fsanitize=address,undefined -fno-omit-frame-pointer \
		-fno-sanitize-recover=undefined -std=gnu11 -Wall -Wextra -pthread
ASAN_ENV     := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# every integration test but the soak (ASan's quarantine grows memory) and the fuzzers
ASAN_TESTS   ?= $(filter-out %/robust_soak_1min.sh %/robust_fuzz.sh, \
		$(wildcard tests/integration/*.sh))
VALGRIND_SKIP ?= test_probes_live test_follow_live test_out_hlog test_arrival test_clockcost
FUZZ_OUTPUT  ?= build-fuzz
FUZZ_SECS    ?= 20
FUZZ_CFLAGS  := -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
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

.PHONY: asan valgrind fuzz fuzz-build soak
