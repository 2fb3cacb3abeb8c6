# Sandlock: make | make check | make install PREFIX=/usr/local DESTDIR= | make uninstall | make static
#           make asan-check | make bench
CC ?= cc
PREFIX ?= /usr/local
BUILD ?= build
CFLAGS ?= -O2 -g
WARN := -std=gnu11 -Wall -Wextra -Werror -Wshadow -Wno-missing-field-initializers
CPPFLAGS_ALL := -Iinclude -Isrc -I$(BUILD) -D_GNU_SOURCE $(CPPFLAGS)
PKG_CONFIG ?= pkg-config

SECCOMP_CFLAGS := $(shell $(PKG_CONFIG) --cflags libseccomp 2>/dev/null)
SECCOMP_LIBS := $(shell $(PKG_CONFIG) --libs libseccomp 2>/dev/null)

LIB_SRC := policy.c options.c profiles.c rlimits.c accounting.c cgroup.c elf.c environ.c privileges.c seccomp.c landlock.c \
	   namespaces.c scratch.c spawn.c supervisor.c report.c features.c \
	   lifeline.c uidpool.c relay.c outfile.c guard.c guard_node.c async.c batch.c
LIB_OBJ := $(addprefix $(BUILD)/,$(LIB_SRC:.c=.o)) $(BUILD)/seccomp_filters.o $(BUILD)/guard_blobs.o
PIC_OBJ := $(LIB_OBJ:.o=.pic.o)
VERSION := $(shell sed -n 's/^\#define SANDLOCK_VERSION_STRING "\(.*\)"/\1/p' include/sandlock.h)

all: $(BUILD)/sandlock $(BUILD)/sandbox_exec $(BUILD)/libsandlock.a \
     $(BUILD)/libsandlock.so $(BUILD)/sandlock.pc $(BUILD)/sandlock-scan

deps:
	@$(PKG_CONFIG) --exists libseccomp || { echo "error: libseccomp not found: install the Debian package libseccomp-dev (and pkg-config)" >&2; exit 1; }

$(BUILD)/.dir:
	@mkdir -p $(BUILD)/pfc && touch $@

# The syscall policy is compiled to BPF at build time, with libseccomp.
$(BUILD)/genfilter: tools/genfilter.c src/seccomp_policy.c src/seccomp_policy.h src/seccomp_filters.h | deps $(BUILD)/.dir
	$(CC) $(WARN) -O1 -Isrc $(SECCOMP_CFLAGS) tools/genfilter.c src/seccomp_policy.c -o $@ $(SECCOMP_LIBS)

$(BUILD)/seccomp_filters.c: $(BUILD)/genfilter
	$(BUILD)/genfilter $@ $(BUILD)/pfc

$(BUILD)/%.o: src/%.c src/internal.h include/sandlock.h src/seccomp_filters.h | $(BUILD)/.dir
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) -c $< -o $@
$(BUILD)/%.pic.o: src/%.c src/internal.h include/sandlock.h src/seccomp_filters.h | $(BUILD)/.dir
	$(CC) $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden $(CPPFLAGS_ALL) -c $< -o $@
$(BUILD)/seccomp_filters.o: $(BUILD)/seccomp_filters.c
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) -c $< -o $@
$(BUILD)/seccomp_filters.pic.o: $(BUILD)/seccomp_filters.c
	$(CC) $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden $(CPPFLAGS_ALL) -c $< -o $@

# The guards' payloads (guard.c): the preload library is built without the
# sanitizers (it is loaded into programs that have none), then carried in
# the library with the Python guard's source.
PRELOAD_SRC := $(wildcard src/preload/*.c)
PRELOAD_CFLAGS ?= -O2 -g
$(BUILD)/libsandlock-preload.so: $(PRELOAD_SRC) $(wildcard src/preload/*.h) | $(BUILD)/.dir
	$(CC) $(WARN) $(PRELOAD_CFLAGS) -fPIC -shared -fvisibility=hidden -D_GNU_SOURCE -Isrc/preload \
		$(PRELOAD_SRC) -o $@ -ldl
$(BUILD)/guard_blobs.o $(BUILD)/guard_blobs.pic.o: src/guard_blobs.S src/guard/python_guard.py \
		$(BUILD)/libsandlock-preload.so
	$(CC) -c -DPYTHON_GUARD='"src/guard/python_guard.py"' \
		-DPRELOAD_SO='"$(BUILD)/libsandlock-preload.so"' $< -o $@
$(BUILD)/guard.o $(BUILD)/guard.pic.o $(BUILD)/guard_node.o $(BUILD)/guard_node.pic.o: src/guard_node.h

# The source scanner, a tool of its own (sandlock-scan(1)).
SCAN_SRC := $(wildcard src/scan/*.c)
$(BUILD)/sandlock-scan: $(SCAN_SRC) $(wildcard src/scan/*.h) | $(BUILD)/.dir
	$(CC) $(WARN) $(CFLAGS) -D_GNU_SOURCE -Isrc/scan $(SCAN_SRC) -o $@ $(LDFLAGS)

$(BUILD)/libsandlock.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^
$(BUILD)/libsandlock.so: $(PIC_OBJ)
	$(CC) -shared -Wl,-soname,libsandlock.so.0 $(LDFLAGS) -o $@ $^

# The tool is linked statically: one file for minimal containers and
# serverless layers, and no dynamic loading on every start.
STATIC ?= -static
CLI_OBJ := $(addprefix $(BUILD)/,main.o cli.o report_file.o cli_batch.o interactive.o)
$(BUILD)/sandlock: $(CLI_OBJ) $(BUILD)/libsandlock.a
	$(CC) $(CFLAGS) $(STATIC) $(LDFLAGS) -o $@ $^
$(CLI_OBJ): src/cli.h
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

unit: $(TEST_BIN)
	@for t in $(TEST_BIN); do $$t || exit 1; done

# Every test: unit tests, then the black-box suites as root and as an
# ordinary user, then everything once more under the sanitizers.
check: check-suite asan-check

check-suite: all unit
	tests/run-all.sh $(BUILD)

# AddressSanitizer and UndefinedBehaviorSanitizer (dynamic link: the
# sanitizers need it), as root; any report aborts the run and fails the suite.
asan-check:
	SANDLOCK_TEST_TINY_KB=16384 SANDLOCK_ATTACKS_SKIP=env_ld_preload SANDLOCK_CHECK_USER=no SANDLOCK_PASS_NAME=sanitizer ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	$(MAKE) BUILD=build-asan STATIC= CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" LDFLAGS="-fsanitize=address,undefined" check-suite

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

clean:
	rm -rf build build-asan

.PHONY: all demo deps static unit check check-suite asan-check bench install uninstall clean
