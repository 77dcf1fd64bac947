# sbxview — plain make, dependencies from pkg-config.
#   make            build ./sbxview
#   make example    build and open the bundled example run
#   make check      every test: layers, unit, golden, end-to-end, fuzz smoke, ASan+UBSan,
#                   distcheck, the Debian package, the arm64 build under qemu-user
#   make bench      speed against wc -l, jq and lnav on a generated 1M-line log
#   make install    PREFIX=/usr/local DESTDIR=
#   make dist       sbxview-VERSION.tar.gz from the files git tracks
#   make distcheck  that tarball unpacked alone, built and its unit and golden suites run
# CPPFLAGS, CFLAGS and LDFLAGS are honoured; WERROR=1 makes warnings errors
# (CI sets it through make check).

# The version: git describe in a clone of this project with tags, else the
# VERSION file make dist writes into the tarball, else this release.
GIT_VERSION := $(shell [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" ] && \
                 git describe --tags --dirty 2>/dev/null | sed 's/^v//')
FILE_VERSION := $(shell cat VERSION 2>/dev/null)
VERSION ?= $(or $(GIT_VERSION),$(FILE_VERSION),0.2.0)
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share/sbxview

CC ?= cc
PKG_CONFIG ?= pkg-config
LIB_PKGS := jansson libpcre2-8 libcrypto libcurl
OPT ?= -O2 -g
WERROR ?= 0
WARN := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror)
CFLAGS ?= $(OPT)
ALL_CFLAGS := -std=gnu11 $(WARN) -I. -D_GNU_SOURCE \
              $(shell $(PKG_CONFIG) --cflags $(LIB_PKGS)) $(CPPFLAGS) $(CFLAGS)
LIBS := $(shell $(PKG_CONFIG) --libs $(LIB_PKGS)) -lpthread
TEST_LIBS := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)

# The layers, lowest first (docs/architecture.md). Everything below app/ is
# the library the tests link (without curses).
LIB_DIRS := base model analyses query importers render export
LIB_SRC := $(sort $(foreach d,$(LIB_DIRS),$(shell find $(d) -name '*.c')))
# The interface's logic without a terminal: keys in, grids out. Unit tests
# and benchmarks link it; only tui/ needs curses.
APP_SRC := $(sort $(shell find app -name '*.c'))
TUI_SRC := $(sort $(shell find tui cli -name '*.c'))
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))

# BUILD_DIR: where objects go (tests/cross/run builds each architecture in
# a folder of its own); RUN: what runs the unit tests (an emulator there).
BUILD_DIR ?= build/release
RUN ?=
B := $(BUILD_DIR)
ifeq ($(SANITIZE),1)
B := build/asan
ALL_CFLAGS += -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDSAN := -fsanitize=address,undefined
endif

# NO_SIMD=1: the portable scalar code only, as on a CPU without vector
# instructions (docs/architecture.md, "SIMD and its scalar twins").
ifeq ($(NO_SIMD),1)
B := $(B)-nosimd
ALL_CFLAGS += -DSBX_NO_SIMD=1
endif

LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
TUI_OBJ := $(TUI_SRC:%.c=$(B)/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
APP_OBJ := $(APP_SRC:%.c=$(B)/%.o)
LIBA := $(B)/libsbxview.a
APPA := $(B)/libsbxview-app.a
BIN := $(if $(filter build/release,$(B)),sbxview,$(B)/sbxview)

.PHONY: all example check check-parts test layers unit golden golden-update e2e fuzz-smoke asan bench \
        install uninstall dist distcheck package cross clean completions readme
all: $(BIN)

# Objects are rebuilt when the flags change (CFLAGS=..., WERROR=1); only the
# two that print the version are rebuilt when it changes. The installed
# themes are found beside the binary wherever it is installed (PREFIX at
# install time), so the folder compiled in is only a fallback, and a PREFIX
# given to make install rebuilds nothing.
FLAGS_NOW := $(CC) $(ALL_CFLAGS) $(LDFLAGS)
ifneq ($(FLAGS_NOW),$(file <$(B)/flags))
$(shell mkdir -p $(B))
$(file >$(B)/flags,$(FLAGS_NOW))
endif
ifneq ($(VERSION),$(file <$(B)/version))
$(shell mkdir -p $(B))
$(file >$(B)/version,$(VERSION))
endif
VERSION_OBJ := $(B)/cli/main.o $(B)/importers/fetch/fetch_runtime.o
$(VERSION_OBJ): ALL_CFLAGS += -DSBX_VERSION='"$(VERSION)"'
$(VERSION_OBJ): $(B)/version
$(B)/cli/cli_util.o: ALL_CFLAGS += -DSBX_THEMEDIR='"$(DATADIR)/themes"'

$(B)/%.o: %.c $(B)/flags
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(LIBA): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# Only the terminal file sees curses.
$(B)/tui/term.o: ALL_CFLAGS += $(shell $(PKG_CONFIG) --cflags ncursesw)
CURSES_LIBS := $(shell $(PKG_CONFIG) --libs ncursesw)

$(APPA): $(APP_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(TUI_OBJ) $(APPA) $(LIBA)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(LDSAN) -o $@ $(TUI_OBJ) $(APPA) $(LIBA) $(LIBS) $(CURSES_LIBS)

$(B)/tests/%: tests/unit/%.c $(APPA) $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(LDSAN) $(shell $(PKG_CONFIG) --cflags cmocka) -MMD -MP -MF $@.d -o $@ $< $(APPA) $(LIBA) $(LIBS) $(TEST_LIBS)

# The tests of the command line (test_cli_*) link it: cli/ and tui/
# without main().
CLI_TEST_OBJ := $(filter-out $(B)/cli/main.o,$(TUI_OBJ))
$(B)/tests/test_cli_%: tests/unit/test_cli_%.c $(CLI_TEST_OBJ) $(APPA) $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(LDSAN) $(shell $(PKG_CONFIG) --cflags cmocka) -MMD -MP -MF $@.d -o $@ $< $(CLI_TEST_OBJ) \
	    $(APPA) $(LIBA) $(LIBS) $(CURSES_LIBS) $(TEST_LIBS)

# The review in the terminal when there is one, else the printed summary.
example: $(BIN)
	@if [ -t 0 ] && [ -t 1 ]; then ./$(BIN) examples/csv-fix; else ./$(BIN) summary examples/csv-fix; fi

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; $(RUN) ./$$t; done

golden: $(BIN)
	tests/golden/run ./$(BIN)
	tests/golden/textfacts ./$(BIN)

golden-update: $(BIN)
	tests/golden/run ./$(BIN) --update

e2e: $(BIN)
	tests/e2e/run ./$(BIN)
	tests/e2e/secrets-everywhere ./$(BIN)
	tests/e2e/install ./$(BIN)

# The include rules between the layers (docs/architecture.md), and the
# check's own cases.
layers:
	tests/layers/test

# The shell completions as bash, zsh and fish drive them (zsh and fish
# skipped when absent), and the README's console examples run and compared.
completions: $(BIN)
	tests/completions/run ./$(BIN)

readme: $(BIN)
	tests/readme/run ./$(BIN)
	tests/readme/test ./$(BIN)

test: layers unit golden e2e completions readme

# The whole suite once more with AddressSanitizer and UBSan.
asan:
	$(MAKE) SANITIZE=1 unit golden e2e

# Each parser's fuzz target for a short run (clang's libFuzzer).
FUZZ_SECONDS ?= 10
fuzz-smoke:
	tests/fuzz/run $(FUZZ_SECONDS)

# The Debian package built, checked by lintian, installed, run and removed
# (root or sudo); the unit and golden suites cross-built for arm64 and run
# under qemu-user.
package:
	tests/package/run
cross:
	tests/cross/run arm64

# CI's run: every part with warnings as errors.
check:
	$(MAKE) WERROR=1 check-parts
check-parts: test asan fuzz-smoke distcheck package cross

bench: $(BIN)
	SBXVIEW=./$(BIN) bench/run-bench

# Every installed file but the binary, as SOURCE=DESTINATION (DESTDIR goes
# before it): one more word here installs and uninstalls one more file.
INSTALLED := sbxview.1=$(MANDIR)/man1/sbxview.1 \
             $(foreach t,$(sort $(wildcard themes/*.theme)),$(t)=$(DATADIR)/$(t)) \
             completions/sbxview.bash=$(PREFIX)/share/bash-completion/completions/sbxview \
             completions/_sbxview=$(PREFIX)/share/zsh/vendor-completions/_sbxview \
             completions/sbxview.fish=$(PREFIX)/share/fish/vendor_completions.d/sbxview.fish

# INSTALL_BIN: which built binary to install (the tests install one they
# were given).
INSTALL_BIN ?= $(BIN)
install: $(INSTALL_BIN)
	install -D -m 755 $(INSTALL_BIN) $(DESTDIR)$(BINDIR)/sbxview
	@set -e; for p in $(INSTALLED); do \
	    echo "install -D -m 644 $${p%%=*} $(DESTDIR)$${p#*=}"; \
	    install -D -m 644 "$${p%%=*}" "$(DESTDIR)$${p#*=}"; \
	done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/sbxview
	@for p in $(INSTALLED); do rm -f "$(DESTDIR)$${p#*=}"; done
	-rmdir $(DESTDIR)$(DATADIR)/themes $(DESTDIR)$(DATADIR) 2>/dev/null

# The tarball: the files git tracks (as they are in the working tree) and
# VERSION, under sbxview-VERSION/, with the last commit's time on every file.
DIST := sbxview-$(VERSION)
dist:
	@git rev-parse --show-toplevel >/dev/null 2>&1 || { echo "make dist: needs a git clone" >&2; exit 2; }
	rm -rf build/dist && mkdir -p build/dist/$(DIST)
	git ls-files -z | tar --null -T - -cf - | tar -xf - -C build/dist/$(DIST)
	echo '$(VERSION)' > build/dist/$(DIST)/VERSION
	tar -C build/dist --sort=name --owner=0 --group=0 --numeric-owner \
	    --mtime="$$(git log -1 --format=%cI)" -czf $(DIST).tar.gz $(DIST)
	rm -rf build/dist
	@echo "make dist: $(DIST).tar.gz"

# The tarball unpacked in an empty folder, built, and its unit and golden
# suites run there; its binary must say the version it was made at.
distcheck: dist
	@set -e; d=$$(mktemp -d); trap 'rm -rf "$$d"' EXIT; \
	tar -xzf $(DIST).tar.gz -C "$$d"; \
	$(MAKE) -C "$$d/$(DIST)" WERROR=$(WERROR) unit golden; \
	v=$$("$$d/$(DIST)/sbxview" --version); \
	[ "$$v" = "sbxview $(VERSION)" ] || { echo "distcheck: --version says '$$v'" >&2; exit 1; }; \
	echo "distcheck: $(DIST).tar.gz builds and passes its unit and golden suites"

clean:
	rm -rf build sbxview sbxview-*.tar.gz

# A unit test is rebuilt when a header it includes (its helpers' too) changes.
-include $(LIB_OBJ:.o=.d) $(APP_OBJ:.o=.d) $(TUI_OBJ:.o=.d) $(UNIT_BIN:=.d)
