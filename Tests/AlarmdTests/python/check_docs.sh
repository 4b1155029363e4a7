#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks alarmd's man pages and alarmctl's shell completions.
#
#   check_docs.sh REPO_ROOT COMPLETIONS_DIR
#
# COMPLETIONS_DIR holds what `alarmctl completions SHELL` prints, as
# alarmctl.bash, _alarmctl and alarmctl.fish (make install installs the same).
# - mandoc -T lint -W warning on each man page: any message fails;
# - bash -n on the bash completion, its `complete` registration, and simulated
#   completions (COMP_WORDS/COMP_CWORD/COMP_LINE set as bash sets them), with a
#   stub alarmctl standing in for the daemon's replies and for a daemon that
#   is down;
# - zsh -n and fish -n on the other completions when those shells exist.
#
# Prints one line per check; exits 1 if any failed.

set -u

root=${1:?usage: check_docs.sh REPO_ROOT COMPLETIONS_DIR}
root=$(cd "$root" && pwd) || exit 2
completions=${2:?usage: check_docs.sh REPO_ROOT COMPLETIONS_DIR}
man_dir=$root/docs/man
failures=0

pass() { printf 'ok: %s\n' "$*"; }
fail() {
    printf 'FAIL: %s\n' "$*"
    failures=$((failures + 1))
}
# fail OUTPUT MESSAGE...: a failure, with the checker's OUTPUT indented below it.
fail_showing() {
    local output=$1
    shift
    fail "$@"
    printf '%s\n' "$output" | sed 's/^/    /'
}
# syntax_check SHELL FILE: `SHELL -n` on COMPLETIONS_DIR/FILE; returns 1
# when it fails.
syntax_check() {
    local shell=$1 file=$2 output
    if output=$("$shell" -n "$completions/$file" 2>&1); then
        pass "$shell -n $file"
    else
        fail_showing "$output" "$shell -n $file"
        return 1
    fi
}

# --- man pages -----------------------------------------------------------

pages=(alarmd.8 alarmctl.1 alarmd.conf.5)
if command -v mandoc >/dev/null 2>&1; then
    for page in "${pages[@]}"; do
        if [[ ! -f $man_dir/$page ]]; then
            fail "docs/man/$page is missing"
            continue
        fi
        output=$(mandoc -T lint -W warning "$man_dir/$page" 2>&1)
        status=$?
        if ((status != 0)) || [[ -n $output ]]; then
            fail_showing "$output" "mandoc -T lint -W warning docs/man/$page (exit $status)"
        else
            pass "mandoc -T lint -W warning docs/man/$page"
        fi
    done
else
    fail "mandoc is not installed (apt-get install mandoc); the man pages were not linted"
fi

if command -v groff >/dev/null 2>&1; then
    for page in "${pages[@]}"; do
        [[ -f $man_dir/$page ]] || continue
        output=$(groff -man -ww -z -Tutf8 "$man_dir/$page" 2>&1)
        if [[ -n $output ]]; then
            fail_showing "$output" "groff -man -ww docs/man/$page"
        else
            pass "groff -man -ww docs/man/$page"
        fi
    done
else
    echo "skipped: groff not installed"
fi

# --- bash completion -------------------------------------------------------

bash_file=$completions/alarmctl.bash
if [[ ! -f $bash_file ]]; then
    fail "$completions/alarmctl.bash is missing"
elif syntax_check bash alarmctl.bash; then
    stub_dir=$(mktemp -d)
    trap 'rm -rf "$stub_dir"' EXIT
    mkdir -p "$stub_dir/up" "$stub_dir/down"
    # A stand-in for alarmctl talking to a running daemon: canned --json replies.
    cat >"$stub_dir/up/alarmctl" <<'EOF'
#!/bin/sh
# The completion passes on a --socket from the command line.
[ "$1" = --socket ] && shift 2
case "$*" in
    "list --json") echo '{"alarms":[{"id":"65d12421-0c1e-4f43-9d43-0d6f1b1c2a3e","time":"07:30","days":["mon","tue","wed","thu","fri"],"repeat":"Weekdays","label":"Work"}]}' ;;
    "remind list --all --json") echo '{"reminders":[{"id":"71b646b6-5d7e-4c52-9a39-1f2e3d4c5b6a","title":"Call the bank","timer":false},{"id":"d0e1f2a3-5d7e-4c52-9a39-1f2e3d4c5b6a","title":"Paid the rent","timer":false},{"id":"7ea7ea00-5d7e-4c52-9a39-1f2e3d4c5b6a","title":"Tea","timer":true}]}' ;;
    "remind list --json") echo '{"reminders":[{"id":"71b646b6-5d7e-4c52-9a39-1f2e3d4c5b6a","title":"Call the bank","timer":false},{"id":"7ea7ea00-5d7e-4c52-9a39-1f2e3d4c5b6a","title":"Tea","timer":true}]}' ;;
    "sounds --json") echo '{"sounds":[{"name":"bell","theme":"freedesktop","path":"/usr/share/sounds/freedesktop/stereo/bell.oga"}]}' ;;
    *) exit 64 ;;
esac
EOF
    # A stand-in for alarmctl when alarmd is down: an error on stderr, exit 69.
    cat >"$stub_dir/down/alarmctl" <<'EOF'
#!/bin/sh
echo "alarmctl: cannot reach alarmd at /nowhere: No such file or directory" >&2
echo "garbage on stdout"
exit 69
EOF
    chmod +x "$stub_dir/up/alarmctl" "$stub_dir/down/alarmctl"

    # Each case: the stub to use (up/down), what to expect ("has WORD" or
    # "empty"), the command line with the cursor at its end, then the words as
    # bash splits that line (":" and "=" are word breaks; the last word is the
    # one under the cursor).
    output=$(
        STUB_DIR=$stub_dir bash --norc --noprofile -c '
            source "$1" || exit 1
            registration=$(complete -p alarmctl 2>&1)
            if [[ $registration == "complete -F _alarmctl alarmctl" ]]; then
                echo "ok: complete -p alarmctl: $registration"
            else
                echo "FAIL: complete -p alarmctl printed: $registration"
            fi
            check() {
                local where=$1 expect=$2 word=$3 line=$4
                shift 4
                COMP_WORDS=("$@")
                COMP_CWORD=$(($# - 1))
                COMP_LINE=$line
                COMP_POINT=${#line}
                COMPREPLY=()
                local label="\"$line\" (daemon $where)" printed
                printed=$(PATH="$STUB_DIR/$where:/usr/bin:/bin" _alarmctl 2>&1)
                PATH="$STUB_DIR/$where:/usr/bin:/bin" _alarmctl >/dev/null 2>&1
                if [[ -n $printed ]]; then
                    echo "FAIL: completing $label printed: $printed"
                elif [[ $expect == lacks ]]; then
                    if printf "%s\n" "${COMPREPLY[@]}" | grep -qxF -- "$word"; then
                        echo "FAIL: completing $label should not offer $word, offered: ${COMPREPLY[*]}"
                    else
                        echo "ok: completing $label does not offer $word"
                    fi
                elif [[ $expect == empty ]]; then
                    if ((${#COMPREPLY[@]} == 0)); then
                        echo "ok: completing $label offers nothing"
                    else
                        echo "FAIL: completing $label offered: ${COMPREPLY[*]}"
                    fi
                elif printf "%s\n" "${COMPREPLY[@]}" | grep -qxF -- "$word"; then
                    echo "ok: completing $label offers $word"
                else
                    echo "FAIL: completing $label should offer $word, offered: ${COMPREPLY[*]:-nothing}"
                fi
            }
            check up has add        "alarmctl a"                       alarmctl a
            check up has remind     "alarmctl re"                      alarmctl re
            check up has --days     "alarmctl add 7:30 --d"            alarmctl add 7 : 30 --d
            check up has --disabled "alarmctl add 7:30 --d"            alarmctl add 7 : 30 --d
            check up has --days     "alarmctl add 7:30 --d"            alarmctl add 7:30 --d
            check up has --no-snooze "alarmctl edit 65d1 --time 7:15 --no-s" alarmctl edit 65d1 --time 7 : 15 --no-s
            check up has weekdays   "alarmctl add 7:30 --days we"      alarmctl add 7 : 30 --days we
            check up has weekdays   "alarmctl add 7:30 --days=we"      alarmctl add 7 : 30 --days = we
            check up has weekdays   "alarmctl add 7:30 --days="        alarmctl add 7 : 30 --days =
            check up has mon,fri    "alarmctl add 7:30 --days mon,f"   alarmctl add 7 : 30 --days mon,f
            check up has done       "alarmctl remind d"                alarmctl remind d
            check up has --all      "alarmctl remind list --a"         alarmctl remind list --a
            check up has --no-due   "alarmctl remind edit 71b6 --no-d" alarmctl remind edit 71b6 --no-d
            check up has move       "alarmctl help remind m"           alarmctl help remind m
            check up has 65d12421   "alarmctl show "                   alarmctl show ""
            check up has 65d12421   "alarmctl rm 65d12421 "            alarmctl rm 65d12421 ""
            check up has 71b646b6   "alarmctl remind done "            alarmctl remind done ""
            check up lacks d0e1f2a3 "alarmctl remind done "            alarmctl remind done ""
            check up has d0e1f2a3   "alarmctl remind undone "          alarmctl remind undone ""
            check up lacks 65d12421 "alarmctl remind done "            alarmctl remind done ""
            check up lacks 7ea7ea00 "alarmctl remind done "            alarmctl remind done ""
            check up lacks 7ea7ea00 "alarmctl remind rm "              alarmctl remind rm ""
            check up has 7ea7ea00   "alarmctl dismiss "                alarmctl dismiss ""
            check up has --json     "alarmctl remind done 71b6 --j"    alarmctl remind done 71b6 --j
            check up has 71b646b6   "alarmctl snooze "                 alarmctl snooze ""
            check up has 65d12421   "alarmctl --socket /tmp/x dismiss " alarmctl --socket /tmp/x dismiss ""
            check up has bell       "alarmctl add 7 --sound b"         alarmctl add 7 --sound b
            check up has none       "alarmctl add 7 --sound n"         alarmctl add 7 --sound n
            check up empty ""       "alarmctl show 65d1 "              alarmctl show 65d1 ""
            check up empty ""       "alarmctl add 7 --label "          alarmctl add 7 --label ""
            check down empty ""     "alarmctl show "                   alarmctl show ""
            check down empty ""     "alarmctl remind rm "              alarmctl remind rm ""
            check down has none     "alarmctl add 7 --sound "          alarmctl add 7 --sound ""
        ' check "$bash_file" 2>&1
    )
    printf '%s\n' "$output"
    failures=$((failures + $(printf '%s\n' "$output" | grep -c '^FAIL')))
fi

# --- zsh and fish ----------------------------------------------------------

if command -v zsh >/dev/null 2>&1; then
    syntax_check zsh _alarmctl
    head -n 1 "$completions/_alarmctl" | grep -qx '#compdef alarmctl' ||
        fail "_alarmctl must start with #compdef alarmctl"
else
    echo "skipped: zsh not installed"
fi

if command -v fish >/dev/null 2>&1; then
    syntax_check fish alarmctl.fish
    # fish completes for real (complete -C) against the stub daemon: `remind
    # done` offers only reminders not done yet (and no timer), `remind undone`
    # every one.
    if [[ -n ${stub_dir:-} ]]; then
        fish_check() {
            local expect=$1 word=$2 line=$3 offered
            offered=$(PATH="$stub_dir/up:/usr/bin:/bin" fish --no-config -c "source '$completions/alarmctl.fish'; complete -C '$line'" 2>&1 | cut -f1)
            if [[ $expect == has ]] && printf '%s\n' "$offered" | grep -qxF -- "$word"; then
                pass "fish completing \"$line\" offers $word"
            elif [[ $expect == lacks ]] && ! printf '%s\n' "$offered" | grep -qxF -- "$word"; then
                pass "fish completing \"$line\" does not offer $word"
            else
                fail "fish completing \"$line\": expected $expect $word, offered: $(printf '%s ' $offered)"
            fi
        }
        fish_check has 71b646b6 "alarmctl remind done "
        fish_check lacks d0e1f2a3 "alarmctl remind done "
        fish_check lacks 7ea7ea00 "alarmctl remind done "
        fish_check has 7ea7ea00 "alarmctl dismiss "
        fish_check has d0e1f2a3 "alarmctl remind undone "
        fish_check has --json "alarmctl remind done 71b6 --"
    fi
else
    echo "skipped: fish not installed"
fi

if ((failures)); then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all documentation checks passed"
