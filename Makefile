# sbxview — plain make, dependencies from pkg-config.
#   make            build ./sbxview
#   make example    build and open the bundled example run
#   make check      every test: layers, unit, golden, end-to-end, fuzz smoke, ASan+UBSan
#   make bench      speed against wc -l, jq and lnav on a generated 1M-line log
#   make install    PREFIX=/usr/local DESTDIR=

VERSION := 0.1.0
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share/sbxview

CC ?= cc
PKG_CONFIG ?= pkg-config
LIB_PKGS := jansson libpcre2-8 libcrypto libcurl
OPT ?= -O2 -g
WARN := -Wall -Wextra -Werror
CFLAGS ?= $(OPT)
ALL_CFLAGS := -std=gnu11 $(WARN) -I. -DSBX_VERSION='"$(VERSION)"' -D_GNU_SOURCE \
              -DSBX_THEMEDIR='"$(DATADIR)/themes"' \
              $(shell $(PKG_CONFIG) --cflags $(LIB_PKGS)) $(CFLAGS)
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

B := build/release
ifeq ($(SANITIZE),1)
B := build/asan
ALL_CFLAGS += -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDSAN := -fsanitize=address,undefined
endif

LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
TUI_OBJ := $(TUI_SRC:%.c=$(B)/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
APP_OBJ := $(APP_SRC:%.c=$(B)/%.o)
LIBA := $(B)/libsbxview.a
APPA := $(B)/libsbxview-app.a
BIN := $(if $(filter 1,$(SANITIZE)),$(B)/sbxview,sbxview)

.PHONY: all example check test layers unit golden golden-update e2e fuzz-smoke asan bench install \
        uninstall clean completions readme
all: $(BIN)

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(LIBA): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# Only the terminal file sees curses.
$(B)/tui/term.o: ALL_CFLAGS += $(shell $(PKG_CONFIG) --cflags ncursesw)
CURSES_LIBS := $(shell $(PKG_CONFIG) --libs ncursesw)

$(APPA): $(APP_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(TUI_OBJ) $(APPA) $(LIBA)
	$(CC) $(LDSAN) -o $@ $(TUI_OBJ) $(APPA) $(LIBA) $(LIBS) $(CURSES_LIBS)

$(B)/tests/%: tests/unit/%.c $(APPA) $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDSAN) $(shell $(PKG_CONFIG) --cflags cmocka) -MMD -MP -MF $@.d -o $@ $< $(APPA) $(LIBA) $(LIBS) $(TEST_LIBS)

# The tests of the command line (test_cli_*) link it: cli/ and tui/
# without main().
CLI_TEST_OBJ := $(filter-out $(B)/cli/main.o,$(TUI_OBJ))
$(B)/tests/test_cli_%: tests/unit/test_cli_%.c $(CLI_TEST_OBJ) $(APPA) $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDSAN) $(shell $(PKG_CONFIG) --cflags cmocka) -MMD -MP -MF $@.d -o $@ $< $(CLI_TEST_OBJ) \
	    $(APPA) $(LIBA) $(LIBS) $(CURSES_LIBS) $(TEST_LIBS)

# The review in the terminal when there is one, else the printed summary.
example: $(BIN)
	@if [ -t 0 ] && [ -t 1 ]; then ./$(BIN) examples/csv-fix; else ./$(BIN) summary examples/csv-fix; fi

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; ./$$t; done

golden: $(BIN)
	tests/golden/run ./$(BIN)
	tests/golden/textfacts ./$(BIN)

golden-update: $(BIN)
	tests/golden/run ./$(BIN) --update

e2e: $(BIN)
	tests/e2e/run ./$(BIN)
	tests/e2e/secrets-everywhere ./$(BIN)

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

check: test asan fuzz-smoke

bench: $(BIN)
	SBXVIEW=./$(BIN) bench/run-bench

install: $(BIN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DATADIR)/themes
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/sbxview
	install -m 644 sbxview.1 $(DESTDIR)$(MANDIR)/man1/sbxview.1
	install -m 644 themes/*.theme $(DESTDIR)$(DATADIR)/themes/
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	    $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 644 completions/sbxview.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/sbxview
	install -m 644 completions/_sbxview $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_sbxview
	install -m 644 completions/sbxview.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/sbxview.fish

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/sbxview $(DESTDIR)$(MANDIR)/man1/sbxview.1
	rm -f $(patsubst themes/%,$(DESTDIR)$(DATADIR)/themes/%,$(wildcard themes/*.theme))
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/sbxview \
	    $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_sbxview \
	    $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/sbxview.fish
	-rmdir $(DESTDIR)$(DATADIR)/themes $(DESTDIR)$(DATADIR) 2>/dev/null

clean:
	rm -rf build sbxview

# A unit test is rebuilt when a header it includes (its helpers' too) changes.
-include $(LIB_OBJ:.o=.d) $(APP_OBJ:.o=.d) $(TUI_OBJ:.o=.d) $(UNIT_BIN:=.d)
