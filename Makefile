# Sandlock: make | make unit | make check | make check-full | make install PREFIX=/usr/local DESTDIR= | make uninstall | make static
#           make asan-check | make bench
CC ?= cc
PREFIX ?= /usr/local
BUILD ?= build
CFLAGS ?= -O2 -g
WARN := -std=gnu11 -Wall -Wextra -Werror -Wshadow -Wno-missing-field-initializers
PKG_CONFIG ?= pkg-config

SECCOMP_CFLAGS := $(shell $(PKG_CONFIG) --cflags libseccomp 2>/dev/null)
SECCOMP_LIBS := $(shell $(PKG_CONFIG) --libs libseccomp 2>/dev/null)
# JSON (the batch manifests, the report and the other outputs) is read and
# written with jansson, Debian's libjansson-dev.
JANSSON_CFLAGS := $(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null)
JANSSON_A := $(shell $(PKG_CONFIG) --variable=libdir jansson 2>/dev/null)/libjansson.a
OBJCOPY ?= objcopy
CPPFLAGS_ALL := -Iinclude -Isrc -I$(BUILD) -D_GNU_SOURCE $(JANSSON_CFLAGS) $(CPPFLAGS)

# The components, a folder each (src/README.md):
#   src/lib     the library a grader links (sandlock_run, sandlock_spawn):
#               policy, the layers, the supervisor, the report
#   src/judge   the judge workflows: batch and async in the library,
#               interactive in the tool
#   src/guards  the guards (Node, Python, the preload library), in the library
#   src/wasm    the WebAssembly backend: backend.c in the library, the rest
#               the WASI host of `make wasm`
#   src/cli     the command-line tool over the library
#   src/scan    the source scanner, a program of its own
# Objects keep their file's name in $(BUILD) (names are unique across the
# folders the library and the tool are made of).
LIB_SRC := $(addprefix src/lib/,policy.c options.c profiles.c rlimits.c accounting.c cgroup.c \
	   elf.c environ.c privileges.c seccomp.c landlock.c bind_root.c namespaces.c scratch.c spawn.c \
	   supervisor.c reap.c pidset.c verdict.c required.c report.c json_out.c features.c lifeline.c uidpool.c shm.c stored.c relay.c outfile.c) \
	   $(addprefix src/judge/,async.c batch.c batch_manifest.c batch_tree.c) \
	   $(addprefix src/guards/,guard.c guard_node.c) \
	   src/wasm/backend.c
CLI_SRC := $(addprefix src/cli/,main.c cli.c report_file.c cli_batch.c nsjail.c selftest.c cpus.c) \
	   $(addprefix src/judge/,interactive.c interactive_args.c interactive_cpu.c interactive_verdict.c)
HEADERS := $(wildcard include/*.h src/lib/*.h src/guards/*.h src/judge/*.h src/cli/*.h) src/wasm/backend.h
LIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(notdir $(LIB_SRC))) $(BUILD)/seccomp_filters.o $(BUILD)/guard_blobs.o
PIC_OBJ := $(LIB_OBJ:.o=.pic.o)
# what the libraries hold: the objects that use jansson with it inside (below)
JSON_OBJ := $(addprefix $(BUILD)/,report.o json_out.o features.o batch.o batch_manifest.o)
AR_OBJ := $(filter-out $(JSON_OBJ),$(LIB_OBJ)) $(BUILD)/json.o

VERSION := $(shell sed -n 's/^\#define SANDLOCK_VERSION_STRING "\(.*\)"/\1/p' include/sandlock.h)

all: $(BUILD)/sandlock $(BUILD)/sandbox_exec $(BUILD)/libsandlock.a \
     $(BUILD)/libsandlock.so $(BUILD)/sandlock.pc $(BUILD)/sandlock-scan

deps:
	@$(PKG_CONFIG) --exists libseccomp || { echo "error: libseccomp not found: install the Debian package libseccomp-dev (and pkg-config)" >&2; exit 1; }
	@test -f $(JANSSON_A) || { echo "error: libjansson.a not found: install the Debian package libjansson-dev (and pkg-config)" >&2; exit 1; }

$(BUILD)/.dir:
	@mkdir -p $(BUILD)/pfc && touch $@

# The syscall policy is compiled to BPF at build time, with libseccomp.
$(BUILD)/genfilter: tools/genfilter.c tools/bpfshrink.c tools/bpfshrink.h src/lib/seccomp_policy.c src/lib/seccomp_policy.h src/lib/seccomp_filters.h | deps $(BUILD)/.dir
	$(CC) $(WARN) -O1 -Isrc/lib $(SECCOMP_CFLAGS) tools/genfilter.c tools/bpfshrink.c src/lib/seccomp_policy.c -o $@ $(SECCOMP_LIBS)

$(BUILD)/seccomp_filters.c: $(BUILD)/genfilter
	$(BUILD)/genfilter $@ $(BUILD)/pfc

# src/wasm is not searched: its WASI host has a main.c of its own
vpath %.c src/lib src/judge src/guards src/cli
$(BUILD)/%.o: %.c $(HEADERS) | $(BUILD)/.dir
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) -c $< -o $@
$(BUILD)/%.pic.o: %.c $(HEADERS) | $(BUILD)/.dir
	$(CC) $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden $(CPPFLAGS_ALL) -c $< -o $@
$(BUILD)/backend.o: src/wasm/backend.c $(HEADERS) src/wasm/glue.h | $(BUILD)/.dir
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) -c $< -o $@
$(BUILD)/backend.pic.o: src/wasm/backend.c $(HEADERS) src/wasm/glue.h | $(BUILD)/.dir
	$(CC) $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden $(CPPFLAGS_ALL) -c $< -o $@
$(BUILD)/seccomp_filters.o: $(BUILD)/seccomp_filters.c
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) -c $< -o $@
$(BUILD)/seccomp_filters.pic.o: $(BUILD)/seccomp_filters.c
	$(CC) $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden $(CPPFLAGS_ALL) -c $< -o $@

# The guards' payloads (guard.c): the preload library is built without the
# sanitizers (it is loaded into programs that have none), then carried in
# the library with the Python guard's source.
# libc's other names for what it hooks (__open64, _IO_fopen, __fork, old
# symbol versions...) are read from the libc this build links against:
# the hooks are linked once alone to list them, then with the aliases.
PRELOAD_SRC := $(wildcard src/guards/preload/*.c)
PRELOAD_CFLAGS ?= -O2 -g
PRELOAD_LIBC = $(shell $(CC) -print-file-name=libc.so.6)
PRELOAD_CC = $(CC) $(WARN) $(PRELOAD_CFLAGS) -fPIC -shared -fvisibility=hidden -D_GNU_SOURCE -Isrc/guards/preload
$(BUILD)/preload-hooks.so: $(PRELOAD_SRC) $(wildcard src/guards/preload/*.h) | $(BUILD)/.dir
	$(PRELOAD_CC) $(PRELOAD_SRC) -o $@ -ldl
$(BUILD)/preload-cover.c: tools/gen-preload-aliases.sh $(BUILD)/preload-hooks.so
	sh tools/gen-preload-aliases.sh $(PRELOAD_LIBC) $(BUILD)/preload-hooks.so $@
$(BUILD)/libsandlock-preload.so: $(PRELOAD_SRC) $(BUILD)/preload-cover.c $(wildcard src/guards/preload/*.h)
	$(PRELOAD_CC) $(PRELOAD_SRC) $(BUILD)/preload-cover.c -o $@ -ldl
$(BUILD)/guard_blobs.o $(BUILD)/guard_blobs.pic.o: src/guards/guard_blobs.S src/guards/python/python_guard.py \
		$(BUILD)/libsandlock-preload.so
	$(CC) -c -DPYTHON_GUARD='"src/guards/python/python_guard.py"' \
		-DPRELOAD_SO='"$(BUILD)/libsandlock-preload.so"' $< -o $@

# The source scanner, a tool of its own (sandlock-scan(1)); it writes its
# JSON as the library does (src/lib/json_out.c), with Debian's jansson.
SCAN_SRC := $(wildcard src/scan/*.c) src/lib/json_out.c
$(BUILD)/sandlock-scan: $(SCAN_SRC) $(wildcard src/scan/*.h) src/lib/json_out.h | deps $(BUILD)/.dir
	$(CC) $(WARN) $(CFLAGS) -D_GNU_SOURCE -Isrc/scan -Isrc $(JANSSON_CFLAGS) $(SCAN_SRC) -o $@ $(LDFLAGS) -ljansson

# jansson is carried inside libsandlock.a: the objects that use it are
# linked with the members of libjansson.a they need into one object, whose
# jansson symbols are then made local.  So the archive stays self-contained
# (a grader links it statically with no -ljansson), and a grader's own
# jansson, of any version, cannot clash with ours.  libsandlock.so links
# Debian's libjansson.so.4 (libjansson.a is not built for shared objects);
# the loader brings it.
$(BUILD)/jansson.syms: | deps $(BUILD)/.dir
	nm -g --defined-only $(JANSSON_A) | awk 'NF == 3 { print $$3 }' > $@
$(BUILD)/json.o: $(JSON_OBJ) $(BUILD)/jansson.syms
	$(CC) -r -nostdlib $(JSON_OBJ) $(JANSSON_A) -o $@.tmp
	$(OBJCOPY) --localize-symbols=$(BUILD)/jansson.syms $@.tmp $@ && rm -f $@.tmp
$(JSON_OBJ) $(JSON_OBJ:.o=.pic.o) $(BUILD)/interactive.o: | deps

$(BUILD)/libsandlock.a: $(AR_OBJ)
	rm -f $@ && ar rcs $@ $^
$(BUILD)/libsandlock.so: $(PIC_OBJ)
	$(CC) -shared -Wl,-soname,libsandlock.so.0 $(LDFLAGS) -o $@ $^ -ljansson

# The tool is linked statically: one file for minimal containers and
# serverless layers, and no dynamic loading on every start.
STATIC ?= -static
CLI_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(notdir $(CLI_SRC)))
# It is made of the library's objects, not the archive: the interactive
# judge writes with jansson too, and one jansson serves both.
$(BUILD)/sandlock: $(CLI_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS) $(STATIC) $(LDFLAGS) -o $@ $^ $(JANSSON_A)
$(BUILD)/sandbox_exec: $(BUILD)/sandlock
	ln -f $< $@

static: $(BUILD)/sandlock
	@file $(BUILD)/sandlock | grep -q 'statically linked' && echo "$(BUILD)/sandlock is fully static"

$(BUILD)/sandlock.pc: sandlock.pc.in include/sandlock.h | $(BUILD)/.dir
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' $< > $@

# ---- tests ----
TEST_BIN := $(patsubst tests/unit/test_%.c,$(BUILD)/test_%,$(wildcard tests/unit/test_*.c))
$(BUILD)/test_%: tests/unit/test_%.c $(BUILD)/cli.o $(BUILD)/libsandlock.a
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) $< $(BUILD)/cli.o $(BUILD)/libsandlock.a -o $@ -lcmocka

# the compiled seccomp filters, evaluated against the policy's tables
$(BUILD)/test_filters: tests/unit/test_filters.c src/lib/seccomp_policy.c $(BUILD)/libsandlock.a
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) $(SECCOMP_CFLAGS) $< $(BUILD)/libsandlock.a -o $@ -lcmocka $(SECCOMP_LIBS)

# The WebAssembly backend's WASI host (src/wasm), tested by its functions:
# no module, no `make wasm` needed.
WASI_SRC := $(filter-out src/wasm/main.c src/wasm/glue.c src/wasm/backend.c,$(wildcard src/wasm/*.c))
$(BUILD)/test_wasi: tests/unit/test_wasi.c $(WASI_SRC) src/wasm/wasi.h | $(BUILD)/.dir
	$(CC) $(WARN) $(CFLAGS) -D_GNU_SOURCE -Isrc/wasm $< $(WASI_SRC) -o $@ -lcmocka

# The tiers (docs/testing.md; which suite runs where: tests/tiers.conf):
#   make unit        unit tests and every compiled filter, no process run
#   make check       a live check of every layer, verdict, language and
#                    host class, root and test user, in parallel lanes
#   make check-full  everything: every suite on every simulated host, real
#                    containers, stress, the sanitizer pass
unit: $(TEST_BIN)
	@tests/unit.sh $(BUILD)

check: all $(TEST_BIN)
	tests/tier.sh check $(BUILD)

check-full: all $(TEST_BIN)
	tests/tier.sh full $(BUILD)

# The old sequential pass (every suite, root and test user, every host),
# kept for the sanitizer lane of check-full (asan-check).

check-suite: all unit
	tests/run-all.sh $(BUILD)

# AddressSanitizer and UndefinedBehaviorSanitizer (dynamic link: the
# sanitizers need it), as root; any report aborts the run and fails the suite.
# SANDLOCK_PASS_PART=host|dsim: the full host's suites or the Docker
# simulation's only; SANDLOCK_PASS_ONLY/EXCEPT: some suites (check-full
# runs four lanes of it; the build is made once, under a lock, whichever
# comes first).
ASAN_ENV = ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
ASAN_MAKE = flock build-asan/.lock $(MAKE) BUILD=build-asan STATIC= CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" LDFLAGS="-fsanitize=address,undefined"
# the sanitizer build alone (CI makes it beside make check: about 7 minutes
# of a slow guest's core that check-full's sanitizer lanes then do not wait)
asan-build:
	@mkdir -p build-asan
	$(ASAN_ENV) $(ASAN_MAKE) all $(patsubst $(BUILD)/%,build-asan/%,$(TEST_BIN))
# (the unit tests run in the pass itself, with its full host's part: not
# under the build's lock, which every sanitizer lane takes)
asan-check: asan-build
	SANDLOCK_TEST_TINY_KB=16384 SANDLOCK_ATTACKS_SKIP=env_ld_preload SANDLOCK_CHECK_USER=no SANDLOCK_PASS_NAME=sanitizer $(ASAN_ENV) \
	tests/run-all.sh build-asan

# Build, then run a real job: a Python submission under the original
# command line, with its JSON report, explained (examples/demo.sh).
demo: all
	@examples/demo.sh $(BUILD)

bench: all
	$(MAKE) -C bench SANDLOCK=../$(BUILD)/sandlock run

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/man/man3
	install -m 0755 $(BUILD)/sandlock $(DESTDIR)$(PREFIX)/bin/sandlock
	install -m 0755 $(BUILD)/sandlock-scan $(DESTDIR)$(PREFIX)/bin/sandlock-scan
	install -m 0644 man/sandlock-scan.1 $(DESTDIR)$(PREFIX)/share/man/man1/sandlock-scan.1
	ln -f $(DESTDIR)$(PREFIX)/bin/sandlock $(DESTDIR)$(PREFIX)/bin/sandbox_exec
	install -m 0644 include/sandlock.h $(DESTDIR)$(PREFIX)/include/sandlock.h
	install -m 0644 $(BUILD)/libsandlock.a $(DESTDIR)$(PREFIX)/lib/libsandlock.a
	install -m 0755 $(BUILD)/libsandlock.so $(DESTDIR)$(PREFIX)/lib/libsandlock.so.0
	ln -sf libsandlock.so.0 $(DESTDIR)$(PREFIX)/lib/libsandlock.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' sandlock.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/sandlock.pc
	chmod 0644 $(DESTDIR)$(PREFIX)/lib/pkgconfig/sandlock.pc
	install -m 0644 man/sandlock.1 $(DESTDIR)$(PREFIX)/share/man/man1/sandlock.1
	install -m 0644 man/sandlock.3 $(DESTDIR)$(PREFIX)/share/man/man3/sandlock.3
	install -m 0644 man/sandbox_exec.1 $(DESTDIR)$(PREFIX)/share/man/man1/sandbox_exec.1

# What install put there, and nothing else.
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/sandlock $(DESTDIR)$(PREFIX)/bin/sandbox_exec \
		$(DESTDIR)$(PREFIX)/bin/sandlock-scan $(DESTDIR)$(PREFIX)/share/man/man1/sandlock-scan.1 \
		$(DESTDIR)$(PREFIX)/include/sandlock.h $(DESTDIR)$(PREFIX)/lib/libsandlock.a \
		$(DESTDIR)$(PREFIX)/lib/libsandlock.so.0 $(DESTDIR)$(PREFIX)/lib/libsandlock.so \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig/sandlock.pc \
		$(DESTDIR)$(PREFIX)/share/man/man1/sandlock.1 \
		$(DESTDIR)$(PREFIX)/share/man/man3/sandlock.3 \
		$(DESTDIR)$(PREFIX)/share/man/man1/sandbox_exec.1
	rm -rf $(DESTDIR)$(PREFIX)/lib/sandlock/wasm
	rmdir $(DESTDIR)$(PREFIX)/lib/sandlock 2>/dev/null || true

# The WebAssembly backend (--runtime wasm): CPython and Duktape for
# wasm32-wasi from Debian's source, through wasm2c, with our WASI host; minutes when cold,
# cached outside the clone (tools/wasm/build.sh says where and how).
wasm:
	tools/wasm/build.sh $(BUILD)/wasm

# the artifacts where an installed sandlock finds them (../lib/sandlock/wasm)
install-wasm:
	@test -x $(BUILD)/wasm/python || { echo "install-wasm: run make wasm first" >&2; exit 1; }
	rm -rf $(DESTDIR)$(PREFIX)/lib/sandlock/wasm
	install -d $(DESTDIR)$(PREFIX)/lib/sandlock/wasm
	cp -RL $(BUILD)/wasm/python $(BUILD)/wasm/node $(BUILD)/wasm/lib $(DESTDIR)$(PREFIX)/lib/sandlock/wasm/

clean:
	rm -rf build build-asan

.PHONY: wasm install-wasm all demo deps static unit check check-full check-suite asan-build asan-check bench install uninstall clean
