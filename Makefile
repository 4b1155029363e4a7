# alarmd — build, run and test. `make run` and `make test` work on a fresh
# Debian 12 machine: run as root they install missing packages with apt,
# otherwise they print the exact apt-get command to run.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
CONFIGURATION ?= debug
BUILD_FLAGS ?=

# Packages the build links against (libadwaita-1-dev brings GTK 4's, for the
# desktop app, alarms).
BUILD_PACKAGES := pkg-config gettext libsqlite3-dev libsystemd-dev libpulse-dev libsndfile1-dev libcurl4-openssl-dev libxml2-dev libseccomp-dev libadwaita-1-dev libncurses-dev tzdata
# Extra packages the tests use as real components: systemd-analyze and
# systemd-journald (systemd), util-linux (unshare, runuser), Python for the
# independent Varlink client, a session bus with a real notification server
# (dbus-daemon, dunst under Xvfb), the freedesktop sound theme, the
# checkers for the man pages and shell completions (mandoc, zsh, fish), and a
# stand-in logind on a private system bus (python3-dbusmock, run with Debian's
# /usr/bin/python3), and a real sound server whose null sink is recorded and
# measured (pulseaudio, pulseaudio-utils' parec and pactl, sox).
# For the desktop app: the checkers of its .desktop file and AppStream
# metainfo (desktop-file-utils, appstream), its icons rasterized (ImageMagick,
# which reads SVG through librsvg2-bin's rsvg-convert) and screenshots read
# (python3-pil), the accessibility bus it is driven through (at-spi2-core,
# python3-pyatspi with gir1.2-atspi-2.0), xauth for Xvfb's clients, the icons
# GTK draws with (adwaita-icon-theme), and GNOME Clocks, the peer the app's
# start-up and memory are measured against. For the terminal interface: tmux,
# the real terminal its tests drive, and calcurse, its peer in bench/.
TEST_PACKAGES := $(BUILD_PACKAGES) systemd util-linux python3 python3-venv \
	dbus-daemon dbus-bin dunst xvfb x11-utils sound-theme-freedesktop \
	mandoc zsh fish python3-dbusmock pulseaudio pulseaudio-utils sox locales \
	desktop-file-utils appstream imagemagick librsvg2-bin python3-pil \
	at-spi2-core python3-pyatspi gir1.2-atspi-2.0 xauth adwaita-icon-theme gnome-clocks \
	tmux calcurse

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

.PHONY: all deps test-deps build run test clean python-deps install uninstall bench fuzz chaos locale po-update test-locales deb release screenshots

# Installation. A home install (the default) puts units where `systemctl --user`
# finds them; any other PREFIX uses $(PREFIX)/lib/systemd/user. DESTDIR stages.
PREFIX ?= $(HOME)/.local
DESTDIR ?=
INSTALL_CONFIGURATION ?= release
# The release build links the Swift runtime into every product (alarmd, the
# helpers and the desktop app, alarms, whose GTK and libadwaita stay shared
# libraries), so an install needs no Swift runtime.
INSTALL_BUILD_FLAGS ?= $(if $(filter release,$(INSTALL_CONFIGURATION)),--static-swift-stdlib,)
# A release install links alarmctl fully static: it starts in about half the
# time (no dynamic loader, no relocations of a position-independent image; see
# BENCHMARKS.md), and it links no C library, so it can be (alarmd needs
# sqlite3 as a shared library). -static-executable needs
# --static-swift-stdlib, so it is not in Package.swift, where it would break a
# plain `swift build -c release`; and it is a build of its own, in a scratch
# path of its own, so its flags never make the main build start over.
# bench/run builds alarmctl with the same flags.
# ALARMCTL_STATIC=no links alarmctl like alarmd (the Swift runtime static, the
# C library shared): the Debian package does, so that glibc's security updates
# reach it (Debian policy; lintian's statically-linked-binary).
ALARMCTL_STATIC ?= yes
STATIC_ALARMCTL := -c release --static-swift-stdlib -Xswiftc -static-executable --product alarmctl --scratch-path $(CURDIR)/.build/static-alarmctl
BINDIR := $(PREFIX)/bin
MANDIR := $(PREFIX)/share/man
# The desktop app's entry, metainfo and icons, where desktops and software
# centres look (for a home install, in ~/.local/share as XDG says).
APPLICATIONSDIR := $(PREFIX)/share/applications
METAINFODIR := $(PREFIX)/share/metainfo
ICONDIR := $(PREFIX)/share/icons/hicolor
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

# Translations (po/README.md): each po/LANG.po becomes alarmd.mo under
# LANG/LC_MESSAGES (messages) and LANG/LC_TIME (the date and time forms, which
# alarmd looks up under LC_TIME, as GNU ls does).
LOCALES := $(basename $(notdir $(wildcard po/*.po)))
LOCALEDIR := $(PREFIX)/share/locale
MO_FILES := $(foreach l,$(LOCALES),.build/locale/$(l)/LC_MESSAGES/alarmd.mo .build/locale/$(l)/LC_TIME/alarmd.mo)
# The locales the tests run alarmctl and alarmd under (generated when missing).
TEST_LOCALES := zh_TW en_US

# Every file install writes, so uninstall removes exactly these.
INSTALLED_FILES := \
	$(BINDIR)/alarmd $(BINDIR)/alarmctl $(HELPERDIR)/alarmd-sync $(HELPERDIR)/alarmd-sound $(HELPERDIR)/alarmctl-ui \
	$(USERUNITDIR)/alarmd.service $(USERUNITDIR)/alarmd.socket \
	$(XDGCONFDIR)/alarmd/alarmd.conf \
	$(CATALOGDIR)/alarmd.catalog $(CATALOGDIR)/alarmd.zh_TW.catalog \
	$(MANDIR)/man8/alarmd.8 $(MANDIR)/man8/alarmd-sync.8 $(MANDIR)/man8/alarmd-sound.8 $(MANDIR)/man1/alarmctl.1 $(MANDIR)/man1/alarmctl-ui.1 $(MANDIR)/man5/alarmd.conf.5 \
	$(BASHCOMPDIR)/alarmctl $(ZSHCOMPDIR)/_alarmctl $(FISHCOMPDIR)/alarmctl.fish \
	$(BINDIR)/alarms $(MANDIR)/man1/alarms.1 \
	$(APPLICATIONSDIR)/io.alarmd.Alarms.desktop $(METAINFODIR)/io.alarmd.Alarms.metainfo.xml \
	$(ICONDIR)/scalable/apps/io.alarmd.Alarms.svg $(ICONDIR)/symbolic/apps/io.alarmd.Alarms-symbolic.svg \
	$(foreach l,$(LOCALES),$(LOCALEDIR)/$(l)/LC_MESSAGES/alarmd.mo $(LOCALEDIR)/$(l)/LC_TIME/alarmd.mo) \
	$(if $(SYSTEM_INSTALL),$(HELPERDIR)/alarmd-wake $(SYSTEMUNITDIR)/alarmd-wake.service $(SYSTEMUNITDIR)/alarmd-wake.socket $(MANDIR)/man8/alarmd-wake.8)

all: build

deps:
	$(call ensure_packages,$(BUILD_PACKAGES))

test-deps:
	$(call ensure_packages,$(TEST_PACKAGES))

build: deps locale
	$(SWIFT) build -c $(CONFIGURATION) $(BUILD_FLAGS)

# The compiled catalogs; `msgfmt --check` refuses a translation whose
# placeholders differ from its message's.
locale: $(MO_FILES)

.build/locale/%/LC_MESSAGES/alarmd.mo: po/%.po
	@mkdir -p $(dir $@)
	msgfmt --check -o $@ $<

.build/locale/%/LC_TIME/alarmd.mo: .build/locale/%/LC_MESSAGES/alarmd.mo
	@mkdir -p $(dir $@)
	cp $< $@

# After changing messages in the sources: the template again from the Swift
# sources (po/extract.py), and every translation merged with it (po/merge.py:
# new and changed messages come in untranslated, nothing is guessed fuzzy,
# and the catalogs keep their unwrapped lines).
po-update:
	python3 po/extract.py po/alarmd.pot Sources
	@for l in $(LOCALES); do echo "merge po/$$l.po"; python3 po/merge.py po/alarmd.pot po/$$l.po; done
	@for l in $(LOCALES); do printf "po/$$l.po: "; msgfmt --check --statistics -o /dev/null po/$$l.po; done

# Shows a preview, then runs the daemon in the foreground with the per-user
# state directory (Ctrl-C stops it). Daemon flags go in ARGS.
run: build
	@echo "== alarmctl preview 7:30 --days weekdays (no daemon needed)"
	@"$$($(SWIFT) build -c $(CONFIGURATION) --show-bin-path)/alarmctl" preview 7:30 --days weekdays
	@echo "== alarmd"
	ALARMD_LOCALEDIR="$(CURDIR)/.build/locale" "$$($(SWIFT) build -c $(CONFIGURATION) --show-bin-path)/alarmd" $(ARGS)

python-deps: test-deps
	@test -x $(PYVENV)/bin/python3 || python3 -m venv $(PYVENV)
	@$(PYVENV)/bin/python3 -c "import varlink, jeepney, dateutil, icalendar, recurring_ical_events, radicale, caldav" 2>/dev/null || $(PYVENV)/bin/python3 -m pip install -q --disable-pip-version-check varlink jeepney python-dateutil icalendar recurring-ical-events radicale caldav

# The harness's own checks (the targets table and BENCHMARKS.md in step; no
# build needed), the suites, then the benchmark harness in its short form: only
# to prove it runs (no figure is judged here); its results go under .build, not bench/.
# The locales the language tests use, generated when missing (as root; the
# tests that need one say so and skip without it).
test-locales: test-deps
	@for l in $(TEST_LOCALES); do \
	  locale -a 2>/dev/null | grep -qx "$$l.utf8" && continue; \
	  if [ "$$(id -u)" = 0 ]; then echo "Generating $$l.UTF-8"; localedef -i $$l -f UTF-8 $$l.UTF-8; \
	  else echo "Missing locale $$l.UTF-8 (as root: localedef -i $$l -f UTF-8 $$l.UTF-8)"; fi; \
	done

# As root, the Debian package is built first (make deb, lintian included) and
# DebianPackageTests installs it with apt, uses it and purges it.
test: test-deps python-deps test-locales locale
	python3 -m unittest discover -s bench/tests
	@if [ "$$(id -u)" = 0 ]; then $(MAKE) --no-print-directory deb; fi
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	@# In C.UTF-8 whatever the caller's language: in-process tests compare
	@# English text; the language tests set LANG for the binaries they run.
	@# Tests/run-suites keeps the output and, on failure, ends it with the
	@# failed tests, those running when the process stopped, and any crash.
	LANG=C.UTF-8 LC_ALL= LANGUAGE= ALARMD_DEB="$$([ "$$(id -u)" = 0 ] && echo $(CURDIR)/.build/deb/alarmd_$(DEB_VERSION)_$(DEB_ARCH).deb)" \
	  Tests/run-suites $(SWIFT) test --skip-build $(BUILD_FLAGS)
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

# The chaos test alone (CrashDurabilityTests): CHAOS_CYCLES kill -9 cycles of
# the real daemon while clients change items and occurrences fall due, then
# the check that nothing acknowledged was lost and every occurrence was
# recorded fired or missed exactly once. make test runs 200 cycles (about
# 70 s on two busy cores); 500 took 4 min, and as the store grows with every
# cycle, so does a cycle's cost: reckon with half an hour for 2,000.
CHAOS_CYCLES ?= 2000
chaos: deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	LANG=C.UTF-8 LC_ALL= LANGUAGE= ALARMD_CHAOS_CYCLES=$(CHAOS_CYCLES) \
	  $(SWIFT) test --skip-build $(BUILD_FLAGS) --filter CrashDurabilityTests

# What `make install` installs, built (install builds it too when needed):
# the package build builds here and installs in a later step.
release: deps locale
	$(SWIFT) build -c $(INSTALL_CONFIGURATION) $(INSTALL_BUILD_FLAGS)
	@if [ "$(INSTALL_CONFIGURATION)" = release ] && [ "$(ALARMCTL_STATIC)" = yes ]; then echo "$(SWIFT) build $(STATIC_ALARMCTL)"; $(SWIFT) build $(STATIC_ALARMCTL); fi

# PRODUCTS=DIR installs binaries already built there instead of building (the
# tests use it: they run while SwiftPM holds the build directory's lock).
install:
	@set -e; if [ -z "$(PRODUCTS)" ]; then \
	  $(SWIFT) build -c $(INSTALL_CONFIGURATION) $(INSTALL_BUILD_FLAGS); \
	  if [ "$(INSTALL_CONFIGURATION)" = release ] && [ "$(ALARMCTL_STATIC)" = yes ]; then $(SWIFT) build $(STATIC_ALARMCTL); fi; \
	fi
	@bin="$(PRODUCTS)"; [ -n "$$bin" ] || bin="$$($(SWIFT) build -c $(INSTALL_CONFIGURATION) $(INSTALL_BUILD_FLAGS) --show-bin-path)"; \
	ctl="$$bin"; if [ -z "$(PRODUCTS)" ] && [ "$(INSTALL_CONFIGURATION)" = release ] && [ "$(ALARMCTL_STATIC)" = yes ]; then ctl="$$($(SWIFT) build $(STATIC_ALARMCTL) --show-bin-path)"; fi; \
	set -e; \
	install -Dm755 "$$bin/alarmd" "$(DESTDIR)$(BINDIR)/alarmd"; \
	install -Dm755 "$$ctl/alarmctl" "$(DESTDIR)$(BINDIR)/alarmctl"; \
	install -Dm755 "$$bin/alarmd-sync" "$(DESTDIR)$(HELPERDIR)/alarmd-sync"; \
	install -Dm755 "$$bin/alarmctl-ui" "$(DESTDIR)$(HELPERDIR)/alarmctl-ui"; \
	install -Dm755 "$$bin/alarmd-sound" "$(DESTDIR)$(HELPERDIR)/alarmd-sound"; \
	install -Dm755 "$$bin/alarms" "$(DESTDIR)$(BINDIR)/alarms"
	install -d "$(DESTDIR)$(USERUNITDIR)"
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@XDGCONFIGDIRS@|$(XDGCONFIGDIRS)|g' systemd/alarmd.service.in > "$(DESTDIR)$(USERUNITDIR)/alarmd.service"
	chmod 644 "$(DESTDIR)$(USERUNITDIR)/alarmd.service"
	install -Dm644 systemd/alarmd.socket "$(DESTDIR)$(USERUNITDIR)/alarmd.socket"
	install -Dm644 config/alarmd.conf "$(DESTDIR)$(XDGCONFDIR)/alarmd/alarmd.conf"
	install -Dm644 systemd/alarmd.catalog "$(DESTDIR)$(CATALOGDIR)/alarmd.catalog"
	install -Dm644 systemd/alarmd.zh_TW.catalog "$(DESTDIR)$(CATALOGDIR)/alarmd.zh_TW.catalog"
	install -Dm644 docs/man/alarmd.8 "$(DESTDIR)$(MANDIR)/man8/alarmd.8"
	install -Dm644 docs/man/alarmd-sync.8 "$(DESTDIR)$(MANDIR)/man8/alarmd-sync.8"
	install -Dm644 docs/man/alarmd-sound.8 "$(DESTDIR)$(MANDIR)/man8/alarmd-sound.8"
	install -Dm644 docs/man/alarmctl.1 "$(DESTDIR)$(MANDIR)/man1/alarmctl.1"
	install -Dm644 docs/man/alarmctl-ui.1 "$(DESTDIR)$(MANDIR)/man1/alarmctl-ui.1"
	install -Dm644 docs/man/alarmd.conf.5 "$(DESTDIR)$(MANDIR)/man5/alarmd.conf.5"
	install -Dm644 docs/man/alarms.1 "$(DESTDIR)$(MANDIR)/man1/alarms.1"
	install -Dm644 data/io.alarmd.Alarms.desktop "$(DESTDIR)$(APPLICATIONSDIR)/io.alarmd.Alarms.desktop"
	install -Dm644 data/io.alarmd.Alarms.metainfo.xml "$(DESTDIR)$(METAINFODIR)/io.alarmd.Alarms.metainfo.xml"
	install -Dm644 data/icons/hicolor/scalable/apps/io.alarmd.Alarms.svg "$(DESTDIR)$(ICONDIR)/scalable/apps/io.alarmd.Alarms.svg"
	install -Dm644 data/icons/hicolor/symbolic/apps/io.alarmd.Alarms-symbolic.svg "$(DESTDIR)$(ICONDIR)/symbolic/apps/io.alarmd.Alarms-symbolic.svg"
	@# The completions are alarmctl's own output, made from its command table.
	@bin="$(PRODUCTS)"; [ -n "$$bin" ] || bin="$$($(SWIFT) build -c $(INSTALL_CONFIGURATION) $(INSTALL_BUILD_FLAGS) --show-bin-path)"; \
	set -e; \
	install -d "$(DESTDIR)$(BASHCOMPDIR)" "$(DESTDIR)$(ZSHCOMPDIR)" "$(DESTDIR)$(FISHCOMPDIR)"; \
	"$$bin/alarmctl" completions bash > "$(DESTDIR)$(BASHCOMPDIR)/alarmctl"; \
	"$$bin/alarmctl" completions zsh > "$(DESTDIR)$(ZSHCOMPDIR)/_alarmctl"; \
	"$$bin/alarmctl" completions fish > "$(DESTDIR)$(FISHCOMPDIR)/alarmctl.fish"; \
	chmod 644 "$(DESTDIR)$(BASHCOMPDIR)/alarmctl" "$(DESTDIR)$(ZSHCOMPDIR)/_alarmctl" "$(DESTDIR)$(FISHCOMPDIR)/alarmctl.fish"
	@$(MAKE) --no-print-directory locale
	@for l in $(LOCALES); do for c in LC_MESSAGES LC_TIME; do \
	  install -Dm644 .build/locale/$$l/$$c/alarmd.mo "$(DESTDIR)$(LOCALEDIR)/$$l/$$c/alarmd.mo"; \
	done; done
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
	@echo "The desktop app: run alarms, or open Alarms from the desktop's applications."
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

# The Debian packages from debian/ (debhelper; `dpkg-buildpackage -us -uc -b`,
# which leaves its files beside the source tree) in .build/deb, checked by
# lintian: alarmd (the daemon, alarmctl, the helpers) and alarms (the desktop
# app, apart so that alarmd installs without GTK). Installs the packaging tools when missing; the Swift toolchain is
# found on PATH or in /opt/swift, as everywhere here.
DEB_PACKAGES := dpkg-dev debhelper fakeroot lintian
DEB_VERSION = $(shell dpkg-parsechangelog -S Version)
DEB_ARCH = $(shell dpkg-architecture -qDEB_HOST_ARCH)
deb: deps
	$(call ensure_packages,$(DEB_PACKAGES))
	PATH="$(dir $(SWIFT)):$$PATH" dpkg-buildpackage -us -uc -b
	mkdir -p .build/deb
	rm -f .build/deb/alarmd_* .build/deb/alarms_*
	mv ../alarmd_$(DEB_VERSION)_$(DEB_ARCH).deb ../alarms_$(DEB_VERSION)_$(DEB_ARCH).deb ../alarmd_$(DEB_VERSION)_$(DEB_ARCH).buildinfo ../alarmd_$(DEB_VERSION)_$(DEB_ARCH).changes .build/deb/
	lintian --fail-on error,warning --info .build/deb/alarmd_$(DEB_VERSION)_$(DEB_ARCH).changes
	@echo "Built .build/deb/alarmd_$(DEB_VERSION)_$(DEB_ARCH).deb and alarms_$(DEB_VERSION)_$(DEB_ARCH).deb (the desktop app); install them with: apt-get install ./.build/deb/alarmd_$(DEB_VERSION)_$(DEB_ARCH).deb ./.build/deb/alarms_$(DEB_VERSION)_$(DEB_ARCH).deb"

clean:
	rm -rf .build

# Screenshots of the desktop app (the alarm list, the alarm editor, the to-do
# list; English and zh_TW) from the real app under Xvfb, driven through AT-SPI
# by the tests' driver, into docs/screenshots/ (tools/screenshots.sh says how).
screenshots: locale
	$(call ensure_packages,xvfb dbus-daemon dbus-bin at-spi2-core python3-pyatspi gir1.2-atspi-2.0 x11-utils imagemagick gettext-base pulseaudio dunst locales fonts-noto-cjk)
	$(SWIFT) build --product alarms
	$(SWIFT) build --product alarmd
	$(SWIFT) build --product alarmctl
	BIN="$$($(SWIFT) build --show-bin-path)" ALARMD_LOCALEDIR="$(CURDIR)/.build/locale" tools/screenshots.sh docs/screenshots
