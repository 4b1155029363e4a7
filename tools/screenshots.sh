#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Screenshots of the Alarms app for the README and the AppStream metainfo,
# taken from the real app under Xvfb: the alarm list, the alarm editor and the
# to-do list, in English and in Traditional Chinese, into
#   OUT/{alarms,alarm-editor,todos}.png and OUT/{alarms,alarm-editor,todos}-zh_TW.png
#
#   tools/screenshots.sh [OUT]        (default docs/screenshots; `make screenshots`)
#
# Each language gets a display of its own (xvfb-run), a private session bus
# (dbus-run-session, whose service files start dunst for the notifications), the
# accessibility bus (at-spi-bus-launcher), a PulseAudio null sink (so the app
# shows no "no sound server" banner), and a private alarmd with the same set of
# alarms and to-dos. The app is driven, as the tests drive it, by
# Tests/AlarmdTests/python/alarms_ui.py (Debian's /usr/bin/python3 with
# python3-pyatspi), and each window is captured with ImageMagick's import.
# The zone is fixed (UTC); the "in 8 h 5 min" phrases follow the clock.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$ROOT/.build/debug}
LOCALEDIR=${ALARMD_LOCALEDIR:-$ROOT/.build/locale}
UI="/usr/bin/python3 $ROOT/Tests/AlarmdTests/python/alarms_ui.py"
# The window's size, given the app's own way (its state file).
WIDTH=${WIDTH:-460}
HEIGHT=${HEIGHT:-640}

if [ "${1:-}" = --inner ]; then
  # Inside xvfb-run and dbus-run-session: one language.
  lang=$2 suffix=$3 out=$4
  work=$(mktemp -d /tmp/alarms-screenshots.XXXXXX)
  pids=()
  cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
  }
  trap cleanup EXIT
  mkdir -p "$work/state" "$work/runtime" "$work/config" "$work/config-dirs" "$work/home/state/alarms" "$work/pulse"
  chmod 700 "$work/runtime"
  export XDG_RUNTIME_DIR=$work/runtime TZ=UTC

  # Translations of the names the app's controls have, from the same catalog.
  T() { if [ "$lang" = C.UTF-8 ]; then printf '%s' "$1"; else LANGUAGE= LC_ALL=$lang TEXTDOMAINDIR=$LOCALEDIR gettext -d alarmd "$1"; fi; }

  /usr/libexec/at-spi-bus-launcher --launch-immediately >/dev/null 2>&1 &
  pids+=($!)
  pulse=""
  if [ -x /usr/bin/pulseaudio ]; then
    HOME=$work/pulse /usr/bin/pulseaudio -n --daemonize=no --exit-idle-time=-1 --use-pid-file=no --system=no --disable-shm=yes \
      -L "module-null-sink sink_name=screenshots" -L "module-native-protocol-unix auth-anonymous=1 socket=$work/pulse/native" \
      >/dev/null 2>&1 &
    pids+=($!)
    pulse="unix:$work/pulse/native"
    for _ in $(seq 100); do [ -S "$work/pulse/native" ] && break; sleep 0.05; done
  fi

  HOME=$work XDG_CONFIG_HOME=$work/config XDG_CONFIG_DIRS=$work/config-dirs LANG=$lang ALARMD_LOCALEDIR=$LOCALEDIR \
    PULSE_SERVER=${pulse:-unix:$work/no-sound-server} ALARMD_WAKE_HELPER=$work/no-wake-helper \
    "$BIN/alarmd" --state-dir "$work/state" 2>"$work/alarmd.log" &
  pids+=($!)
  export ALARMD_SOCKET=$work/runtime/alarmd/io.alarmd
  for _ in $(seq 200); do [ -S "$ALARMD_SOCKET" ] && break; sleep 0.05; done
  ctl() { LANG=$lang ALARMD_LOCALEDIR=$LOCALEDIR "$BIN/alarmctl" "$@" >/dev/null; }

  if [ "$lang" = C.UTF-8 ]; then
    gym=Gym office=Work weekend=Weekend milk="Buy milk" milknotes="Oat milk, two litres" mom="Call mom" rent="Pay rent"
  else
    gym=健身 office=上班 weekend=週末 milk=買牛奶 milknotes="燕麥奶，兩公升" mom=打電話給媽媽 rent=繳房租
  fi
  ctl add 6:30 --days weekdays --label "$gym"
  ctl add 7:30 --days weekdays --label "$office" --disabled
  ctl add 9:00 --days sat,sun --label "$weekend"
  ctl remind add "$milk" --notes "$milknotes"
  ctl remind add "$mom" --at "tomorrow 18:00"
  ctl remind add "$rent" --at "$(date -d "$(date +%Y-%m-01) +1 month" +%Y-%m-%d) 09:00" --monthly 1

  printf '[window]\nwidth=%s\nheight=%s\nmaximized=false\n' "$WIDTH" "$HEIGHT" > "$work/home/state/alarms/window.ini"
  HOME=$work/home XDG_STATE_HOME=$work/home/state XDG_CONFIG_HOME=$work/home/config XDG_DATA_HOME=$work/home/data \
    XDG_CACHE_HOME=$work/home/cache LANG=$lang LANGUAGE= ALARMD_LOCALEDIR=$LOCALEDIR GTK_A11Y=atspi GDK_BACKEND=x11 \
    GSETTINGS_BACKEND=memory "$BIN/alarms" >"$work/app.log" 2>&1 &
  app=$!
  pids+=($app)
  ui() { $UI --pid "$app" "$@" >/dev/null; }

  main=$(T Alarms)
  ui wait "check box" "$gym"
  ui wait "check box" "$weekend"
  sleep 0.5  # the switch's slide and the list's fade in
  ui shot "$main" "$out/alarms$suffix.png"

  ui click "page tab" "$(T To-dos)"
  ui wait "check box" "$rent"
  sleep 0.5
  ui shot "$main" "$out/todos$suffix.png"

  ui click "page tab" "$(T Alarms)"
  ui click "push button" "$(T 'Add Alarm')"
  editor=$(T 'New Alarm')
  ui wait-window "$editor"
  ui set-value "spin button" "$(T Hour)" 6
  ui set-value "spin button" "$(T Minute)" 30
  # The weekday toggles by their names; GTK 4.8 may add the visible
  # abbreviation to the accessible name, so the name's start is enough here.
  for day in Monday Tuesday Wednesday Thursday Friday; do ui toggle "push button" "prefix:$(T $day)"; done
  ui set-text text "$(T Label)" "$gym"
  sleep 0.5
  ui shot "$editor" "$out/alarm-editor$suffix.png"
  echo "$lang: $out/alarms$suffix.png $out/todos$suffix.png $out/alarm-editor$suffix.png"
  exit 0
fi

OUT=${1:-$ROOT/docs/screenshots}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
for program in /usr/bin/xvfb-run /usr/bin/dbus-run-session /usr/libexec/at-spi-bus-launcher /usr/bin/import /usr/bin/xwininfo /usr/bin/gettext "$BIN/alarms" "$BIN/alarmd" "$BIN/alarmctl"; do
  [ -x "$program" ] || { echo "screenshots: $program is missing (make test-deps installs the tools; make build the programs)" >&2; exit 1; }
done
[ -f "$LOCALEDIR/zh_TW/LC_MESSAGES/alarmd.mo" ] || { echo "screenshots: no catalogs in $LOCALEDIR: run make locale" >&2; exit 1; }
for spec in "C.UTF-8:" "zh_TW.UTF-8:-zh_TW"; do
  lang=${spec%%:*} suffix=${spec#*:}
  xvfb-run -a -s "-screen 0 1024x768x24 -nolisten tcp" dbus-run-session -- "$0" --inner "$lang" "$suffix" "$OUT"
done
