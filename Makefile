# alarmd — build, run and test. `make run` and `make test` work on a fresh
# Debian 12 machine: run as root they install missing packages with apt,
# otherwise they print the exact apt-get command to run.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
CONFIGURATION ?= debug
BUILD_FLAGS ?=

# Packages the build links against.
BUILD_PACKAGES := pkg-config libsqlite3-dev libsystemd-dev libpulse-dev libsndfile1-dev libcurl4-openssl-dev libxml2-dev tzdata
# Extra packages the tests use as real components: systemd-analyze and
# systemd-journald (systemd), util-linux (unshare, runuser), Python for the
# independent Varlink client, a session bus with a real notification server
# (dbus-daemon, dunst under Xvfb), the freedesktop sound theme, the
# checkers for the man pages and shell completions (mandoc, zsh, fish), and a
# stand-in logind on a private system bus (python3-dbusmock, run with Debian's
# /usr/bin/python3), and a real sound server whose null sink is recorded and
# measured (pulseaudio, pulseaudio-utils' parec and pactl, sox).
TEST_PACKAGES := $(BUILD_PACKAGES) systemd util-linux python3 python3-venv \
	dbus-daemon dbus-bin dunst xvfb x11-utils sound-theme-freedesktop \
	mandoc zsh fish python3-dbusmock pulseaudio pulseaudio-utils sox

# The Python `varlink` package (an independent Varlink client), `jeepney`
# (a stand-in systemd manager on a private bus), `python-dateutil` (an
# independent recurrence engine, the oracle of the rule tests) and
# `icalendar` with `recurring-ical-events` (the other program that reads
# alarmd's iCalendar export), from PyPI, in a private
# virtual environment so the system's Python is left alone; the tests look
# for them here.
PYVENV := .build/pyvenv

# Installs the packages named in $(1) that dpkg does not list as installed.
define ensure_packages
	@missing=""; \
	for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "Missing Debian packages:$$missing"; \
	    echo "Install them with:  sudo apt-get install$$missing"; \
	    exit 1; \
	  fi; \
	fi
	@test -x "$(SWIFT)" || { echo "No Swift toolchain found (looked for 'swift' on PATH and /opt/swift). Install Swift 6 from swift.org and retry."; exit 1; }
endef

.PHONY: all deps test-deps build run test clean python-deps install uninstall bench fuzz

# Installation. A home install (the default) puts units where `systemctl --user`
# finds them; any other PREFIX uses $(PREFIX)/lib/systemd/user. DESTDIR stages.
PREFIX ?= $(HOME)/.local
DESTDIR ?=
INSTALL_CONFIGURATION ?= release
INSTALL_BUILD_FLAGS ?= $(if $(filter release,$(INSTALL_CONFIGURATION)),--static-swift-stdlib,)
# A release install links alarmctl fully static: it starts in about half the
# time (no dynamic loader, no relocations of a position-independent image; see
# BENCHMARKS.md), and it links no C library, so it can be (alarmd needs
# libsystemd and sqlite3 as shared libraries). -static-executable needs
# --static-swift-stdlib, so it is not in Package.swift, where it would break a
# plain `swift build -c release`; and it is a build of its own, in a scratch
# path of its own, so its flags never make the main build start over.
# bench/run builds alarmctl with the same flags.
STATIC_ALARMCTL := -c release --static-swift-stdlib -Xswiftc -static-executable --product alarmctl --scratch-path $(CURDIR)/.build/static-alarmctl
BINDIR := $(PREFIX)/bin
MANDIR := $(PREFIX)/share/man
XDGCONFDIR := $(if $(filter /usr,$(PREFIX)),/etc/xdg,$(PREFIX)/etc/xdg)
# What the service's XDG_CONFIG_DIRS must be for alarmd to find that file.
XDGCONFIGDIRS := $(if $(filter /etc/xdg,$(XDGCONFDIR)),/etc/xdg,$(XDGCONFDIR):/etc/xdg)
ifeq ($(PREFIX),$(HOME)/.local)
USERUNITDIR := $(HOME)/.config/systemd/user
else
USERUNITDIR := $(PREFIX)/lib/systemd/user
endif
CATALOGDIR := $(PREFIX)/lib/systemd/catalog
# The alarmd-wake system helper (issue 14) and its system units, installed
# only with a system prefix (not into a home): a system service is root's.
HELPERDIR := $(PREFIX)/libexec
SYSTEMUNITDIR := $(PREFIX)/lib/systemd/system
SYSTEM_INSTALL := $(if $(filter $(HOME)/.local,$(PREFIX)),,yes)
BASHCOMPDIR := $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR := $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR := $(PREFIX)/share/fish/vendor_completions.d

# Every file install writes, so uninstall removes exactly these.
INSTALLED_FILES := \
	$(BINDIR)/alarmd $(BINDIR)/alarmctl \
	$(USERUNITDIR)/alarmd.service $(USERUNITDIR)/alarmd.socket \
	$(XDGCONFDIR)/alarmd/alarmd.conf \
	$(CATALOGDIR)/alarmd.catalog \
	$(MANDIR)/man8/alarmd.8 $(MANDIR)/man1/alarmctl.1 $(MANDIR)/man5/alarmd.conf.5 \
	$(BASHCOMPDIR)/alarmctl $(ZSHCOMPDIR)/_alarmctl $(FISHCOMPDIR)/alarmctl.fish \
	$(if $(SYSTEM_INSTALL),$(HELPERDIR)/alarmd-wake $(SYSTEMUNITDIR)/alarmd-wake.service $(SYSTEMUNITDIR)/alarmd-wake.socket $(MANDIR)/man8/alarmd-wake.8)

all: build

deps:
	$(call ensure_packages,$(BUILD_PACKAGES))

test-deps:
	$(call ensure_packages,$(TEST_PACKAGES))

build: deps
	$(SWIFT) build -c $(CONFIGURATION) $(BUILD_FLAGS)

# Shows a preview, then runs the daemon in the foreground with the per-user
# state directory (Ctrl-C stops it). Daemon flags go in ARGS.
run: build
	@echo "== alarmctl preview 7:30 --days weekdays (no daemon needed)"
	@"$$($(SWIFT) build -c $(CONFIGURATION) --show-bin-path)/alarmctl" preview 7:30 --days weekdays
	@echo "== alarmd"
	"$$($(SWIFT) build -c $(CONFIGURATION) --show-bin-path)/alarmd" $(ARGS)

python-deps: test-deps
	@test -x $(PYVENV)/bin/python3 || python3 -m venv $(PYVENV)
	@$(PYVENV)/bin/python3 -c "import varlink, jeepney, dateutil, icalendar, recurring_ical_events, radicale, caldav" 2>/dev/null || $(PYVENV)/bin/python3 -m pip install -q --disable-pip-version-check varlink jeepney python-dateutil icalendar recurring-ical-events radicale caldav

# The harness's own checks (the targets table and BENCHMARKS.md in step; no
# build needed), the suites, then the benchmark harness in its short form: only
# to prove it runs (no figure is judged here); its results go under .build, not bench/.
test: test-deps python-deps
	python3 -m unittest discover -s bench/tests
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --skip-build $(BUILD_FLAGS)
	SWIFT="$(SWIFT)" bench/run --quick --results .build/bench/quick
	@# Every fuzz target still builds, runs a few seconds clean and passes its
	@# saved regressions (a harness nothing builds rots: see Fuzz/README.md).
	Fuzz/run 5

# Benchmarks (BENCHMARKS.md): a release build in .build/bench, every benchmark
# side by side with real atd and cron, results in bench/results/latest.json and
# lateness.svg. As root it installs at, cron and gnuplot-nox when missing.
# About ten minutes on two cores.
bench: deps
	SWIFT="$(SWIFT)" bench/run

# libFuzzer targets (Fuzz/README.md), FUZZ_SECONDS each (default 60), from the
# checked-in seed corpora; then every saved regression input is replayed.
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/run

# PRODUCTS=DIR installs binaries already built there instead of building (the
# tests use it: they run while SwiftPM holds the build directory's lock).
install:
	@set -e; if [ -z "$(PRODUCTS)" ]; then \
	  $(SWIFT) build -c $(INSTALL_CONFIGURATION) $(INSTALL_BUILD_FLAGS); \
	  if [ "$(INSTALL_CONFIGURATION)" = release ]; then $(SWIFT) build $(STATIC_ALARMCTL); fi; \
	fi
	@bin="$(PRODUCTS)"; [ -n "$$bin" ] || bin="$$($(SWIFT) build -c $(INSTALL_CONFIGURATION) $(INSTALL_BUILD_FLAGS) --show-bin-path)"; \
	ctl="$$bin"; if [ -z "$(PRODUCTS)" ] && [ "$(INSTALL_CONFIGURATION)" = release ]; then ctl="$$($(SWIFT) build $(STATIC_ALARMCTL) --show-bin-path)"; fi; \
	set -e; \
	install -Dm755 "$$bin/alarmd" "$(DESTDIR)$(BINDIR)/alarmd"; \
	install -Dm755 "$$ctl/alarmctl" "$(DESTDIR)$(BINDIR)/alarmctl"
	install -d "$(DESTDIR)$(USERUNITDIR)"
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@XDGCONFIGDIRS@|$(XDGCONFIGDIRS)|g' systemd/alarmd.service.in > "$(DESTDIR)$(USERUNITDIR)/alarmd.service"
	chmod 644 "$(DESTDIR)$(USERUNITDIR)/alarmd.service"
	install -Dm644 systemd/alarmd.socket "$(DESTDIR)$(USERUNITDIR)/alarmd.socket"
	install -Dm644 config/alarmd.conf "$(DESTDIR)$(XDGCONFDIR)/alarmd/alarmd.conf"
	install -Dm644 systemd/alarmd.catalog "$(DESTDIR)$(CATALOGDIR)/alarmd.catalog"
	install -Dm644 docs/man/alarmd.8 "$(DESTDIR)$(MANDIR)/man8/alarmd.8"
	install -Dm644 docs/man/alarmctl.1 "$(DESTDIR)$(MANDIR)/man1/alarmctl.1"
	install -Dm644 docs/man/alarmd.conf.5 "$(DESTDIR)$(MANDIR)/man5/alarmd.conf.5"
	install -Dm644 config/completions/alarmctl.bash "$(DESTDIR)$(BASHCOMPDIR)/alarmctl"
	install -Dm644 config/completions/_alarmctl "$(DESTDIR)$(ZSHCOMPDIR)/_alarmctl"
	install -Dm644 config/completions/alarmctl.fish "$(DESTDIR)$(FISHCOMPDIR)/alarmctl.fish"
ifeq ($(SYSTEM_INSTALL),yes)
	@bin="$(PRODUCTS)"; [ -n "$$bin" ] || bin="$$($(SWIFT) build -c $(INSTALL_CONFIGURATION) $(INSTALL_BUILD_FLAGS) --show-bin-path)"; \
	install -Dm755 "$$bin/alarmd-wake" "$(DESTDIR)$(HELPERDIR)/alarmd-wake"
	install -d "$(DESTDIR)$(SYSTEMUNITDIR)"
	sed -e 's|@HELPERDIR@|$(HELPERDIR)|g' systemd/alarmd-wake.service.in > "$(DESTDIR)$(SYSTEMUNITDIR)/alarmd-wake.service"
	chmod 644 "$(DESTDIR)$(SYSTEMUNITDIR)/alarmd-wake.service"
	install -Dm644 systemd/alarmd-wake.socket "$(DESTDIR)$(SYSTEMUNITDIR)/alarmd-wake.socket"
	install -Dm644 docs/man/alarmd-wake.8 "$(DESTDIR)$(MANDIR)/man8/alarmd-wake.8"
endif
	@# journalctl reads catalogs only from system directories; elsewhere there is
	@# nothing for it to update.
	@if [ -z "$(DESTDIR)" ] && [ -n "$(filter /usr /usr/local,$(PREFIX))" ] && [ "$$(id -u)" = 0 ] && command -v journalctl >/dev/null; then journalctl --update-catalog; fi
	@echo "Installed. Next: systemctl --user daemon-reload && systemctl --user enable --now alarmd.socket alarmd.service"
ifeq ($(SYSTEM_INSTALL),yes)
	@echo "Wake-ups from suspend on systemd before 254 (as root): systemctl daemon-reload && systemctl enable --now alarmd-wake.socket"
endif

uninstall:
	rm -f $(addprefix "$(DESTDIR),$(addsuffix ",$(INSTALLED_FILES)))
	@# In a staging DESTDIR, also remove the directories that are now empty; a
	@# real install leaves shared directories such as ~/.local/bin alone.
	@[ -n "$(DESTDIR)" ] || exit 0; for f in $(INSTALLED_FILES); do \
	  d=$$(dirname "$(DESTDIR)$$f"); \
	  while [ "$$d" != "$(DESTDIR)" ] && [ "$$d" != "/" ] && rmdir "$$d" 2>/dev/null; do d=$$(dirname "$$d"); done; \
	done; true

clean:
	rm -rf .build
