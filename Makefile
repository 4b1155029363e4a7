# alarmd — build, run and test. `make run` and `make test` work on a fresh
# Debian 12 machine: run as root they install missing packages with apt,
# otherwise they print the exact apt-get command to run.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
CONFIGURATION ?= debug
BUILD_FLAGS ?=

# Packages the build links against.
BUILD_PACKAGES := pkg-config libsqlite3-dev libsystemd-dev tzdata
# Extra packages the tests use as real components: systemd-analyze and
# systemd-journald (systemd), util-linux (unshare, runuser), Python for the
# independent Varlink client, a session bus with a real notification server
# (dbus-daemon, dunst under Xvfb) and the freedesktop sound theme.
TEST_PACKAGES := $(BUILD_PACKAGES) systemd util-linux python3 python3-venv \
	dbus-daemon dbus-bin dunst xvfb x11-utils sound-theme-freedesktop

# The Python `varlink` package (PyPI), in a private virtual environment so the
# system's Python is left alone; the tests look for it here.
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

.PHONY: all deps test-deps build run test clean python-deps

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
	@$(PYVENV)/bin/python3 -c 'import varlink' 2>/dev/null || $(PYVENV)/bin/python3 -m pip install -q --disable-pip-version-check varlink

test: test-deps python-deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --skip-build $(BUILD_FLAGS)

clean:
	rm -rf .build
