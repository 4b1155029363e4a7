# bash completion for alarmctl(1), the command line of alarmd.
#
# Install as /usr/share/bash-completion/completions/alarmctl, or source it from
# ~/.bashrc. Item ids and sound names come from the running daemon
# (alarmctl list --json, remind list --all --json, sounds --json); when it is
# not running, those simply do not complete. jq is not needed.

_alarmctl_commands=(list show add edit rm enable disable skip unskip remind snooze dismiss next status watch sounds export import preview help)
_alarmctl_remind_commands=(add list show "done" undone rm edit move)
_alarmctl_day_words=(weekdays weekends daily every-day never mon tue wed thu fri sat sun
    monday tuesday wednesday thursday friday saturday sunday)

# The options of one command ("add", "remind add", ...), help included.
_alarmctl_options() {
    local alarm_fields="--days --label --sound --snooze --no-snooze --max-snoozes --ring --tz --command"
    case $1 in
        list | show | enable | disable | skip | unskip | dismiss | status | watch | sounds | import)
            echo "--json --socket" ;;
        add) echo "$alarm_fields --disabled --json --socket" ;;
        edit) echo "--time $alarm_fields --no-command --enabled --disabled --json --socket" ;;
        rm | export | "remind rm") echo "--socket" ;;
        snooze) echo "--minutes --json --socket" ;;
        next) echo "--count --json --socket" ;;
        preview) echo "--days --count --from --tz --json" ;;
        "remind add") echo "--at --in --notes --image --command --json --socket" ;;
        "remind list") echo "--all --json --socket" ;;
        "remind show" | "remind done" | "remind undone" | "remind move") echo "--json --socket" ;;
        "remind edit") echo "--title --notes --at --in --no-due --image --no-image --command --no-command --json --socket" ;;
    esac
    echo "--help"
}

# Options that take a value (the next word, or after "=").
_alarmctl_takes_value() {
    case $1 in
        --socket | --days | --label | --sound | --snooze | --max-snoozes | --ring | --tz | --command | --time | \
            --minutes | --count | --from | --at | --in | --notes | --image | --title) return 0 ;;
    esac
    return 1
}

# Runs alarmctl quietly against the socket named on the command line, if any,
# giving up after two seconds; prints nothing when the daemon is down.
_alarmctl_query() {
    local prog=${_alarmctl_words[0]}
    [[ $prog == \~/* ]] && prog=$HOME/${prog#\~/}
    [[ $prog == */* && -x $prog ]] || prog=$(type -P alarmctl 2>/dev/null) || return 0
    [[ -n $prog ]] || return 0
    local -a args=()
    [[ -n $_alarmctl_socket ]] && args=(--socket "$_alarmctl_socket")
    if type -P timeout >/dev/null 2>&1; then
        timeout 2 "$prog" "${args[@]}" "$@" 2>/dev/null
    else
        "$prog" "${args[@]}" "$@" 2>/dev/null
    fi
}

# The 8-character id prefixes that tables show: alarms, reminders, or both.
_alarmctl_ids() {
    {
        [[ $1 != reminders ]] && _alarmctl_query list --json
        [[ $1 != alarms ]] && _alarmctl_query remind list --all --json
    } | grep -o '"id":"[0-9a-f-]*"' | cut -c7-14
}

_alarmctl_sounds() {
    _alarmctl_query sounds --json | grep -o '"name":"[^"]*"' | cut -c9- | tr -d '"'
    echo none
}

_alarmctl_zones() {
    local tab
    for tab in /usr/share/zoneinfo/zone1970.tab /usr/share/zoneinfo/zone.tab; do
        if [[ -r $tab ]]; then
            awk '!/^#/ && NF >= 3 { print $3 }' "$tab" 2>/dev/null
            break
        fi
    done
    echo UTC
}

# Sets COMPREPLY to the candidates (full logical words) that start with the
# logical current word, minus the part of it bash keeps in earlier tokens
# (bash splits "--days=mon" and "7:30" at = and :).
_alarmctl_reply() {
    local cur=${_alarmctl_words[_alarmctl_cword]} raw=${COMP_WORDS[COMP_CWORD]} candidate
    # Readline replaces only the text after a break character: none of "=".
    [[ $raw == *[!=:]* ]] || raw=
    local cut=$((${#cur} - ${#raw}))
    ((cut < 0)) && cut=0
    COMPREPLY=()
    for candidate in "$@"; do
        [[ $candidate == "$cur"* ]] && COMPREPLY+=("${candidate:cut}")
    done
}

# Rebuilds the words as the user typed them, joining the pieces bash made at
# COMP_WORDBREAKS characters (=, :) that have no space between them.
_alarmctl_reassemble() {
    _alarmctl_words=()
    _alarmctl_cword=0
    local rest=${COMP_LINE-} i word trimmed joined
    for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
        word=${COMP_WORDS[i]}
        joined=0
        if [[ -n ${COMP_LINE+set} ]]; then
            trimmed=${rest#"${rest%%[![:space:]]*}"}
            if ((i > 0)) && [[ $trimmed == "$rest" && $rest == "$word"* ]]; then
                joined=1
            fi
            [[ $trimmed == "$word"* ]] && rest=${trimmed:${#word}} || rest=$trimmed
        fi
        if ((joined)); then
            _alarmctl_words[${#_alarmctl_words[@]} - 1]+=$word
        else
            _alarmctl_words+=("$word")
        fi
        ((i == COMP_CWORD)) && _alarmctl_cword=$((${#_alarmctl_words[@]} - 1))
    done
    return 0
}

_alarmctl() {
    local -a _alarmctl_words
    local _alarmctl_cword _alarmctl_socket=''
    COMPREPLY=()
    _alarmctl_reassemble
    local -a words=("${_alarmctl_words[@]}")
    local cword=$_alarmctl_cword cur=${_alarmctl_words[_alarmctl_cword]}

    # Find the command (and remind's subcommand), the --socket given, and the
    # positional arguments before the current word.
    local i=1 word command='' positionals=0 ended=0
    while ((i < cword)); do
        word=${words[i]}
        if ((ended)) || [[ $word != -* || $word == - ]]; then
            if [[ -z $command ]]; then
                command=$word
            elif [[ $command == remind || $command == help || $command == "help remind" ]]; then
                command="$command $word"
            else
                ((positionals++))
            fi
        elif [[ $word == -- ]]; then
            ended=1
        elif [[ $word == --socket=* ]]; then
            _alarmctl_socket=${word#--socket=}
        elif _alarmctl_takes_value "$word"; then
            [[ $word == --socket ]] && _alarmctl_socket=${words[i + 1]}
            ((i++))
        fi
        ((i++))
    done

    # The value of an option: "--opt VALUE" or "--opt=VALUE".
    local option='' value_prefix=''
    if ((!ended)) && [[ $cur == --*=* ]]; then
        option=${cur%%=*}
        value_prefix=$option=
        cur=${cur#*=}
    elif ((!ended && cword > 1)) && _alarmctl_takes_value "${words[cword - 1]}" && [[ $command != help* ]]; then
        option=${words[cword - 1]}
    fi
    if [[ -n $option ]]; then
        local -a values=()
        case $option in
            --days)
                local base='' day
                [[ $cur == *,* ]] && base=${cur%,*},
                for day in "${_alarmctl_day_words[@]}"; do values+=("$value_prefix$base$day"); done
                ;;
            --sound)
                if [[ $cur == /* ]]; then
                    compopt -o filenames 2>/dev/null
                    local file
                    while IFS= read -r file; do values+=("$value_prefix$file"); done < <(compgen -f -- "$cur")
                else
                    local sound
                    while IFS= read -r sound; do values+=("$value_prefix$sound"); done < <(_alarmctl_sounds)
                fi
                ;;
            --tz)
                local zone
                while IFS= read -r zone; do values+=("$value_prefix$zone"); done < <(_alarmctl_zones)
                ;;
            --image | --socket)
                compopt -o filenames 2>/dev/null
                local file
                while IFS= read -r file; do values+=("$value_prefix$file"); done < <(compgen -f -- "$cur")
                ;;
            --command)
                local program
                while IFS= read -r program; do values+=("$value_prefix$program"); done < <(compgen -c -- "$cur" | sort -u)
                ;;
            *) return 0 ;; # free text, numbers, times: nothing to offer
        esac
        _alarmctl_reply "${values[@]}"
        return 0
    fi

    if [[ -z $command ]]; then
        if [[ $cur == -* ]]; then
            _alarmctl_reply --socket --help
        else
            _alarmctl_reply "${_alarmctl_commands[@]}"
        fi
        return 0
    fi

    case $command in
        help)
            _alarmctl_reply "${_alarmctl_commands[@]}"
            return 0
            ;;
        "help remind" | remind)
            if [[ $command == remind && $cur == -* ]]; then
                _alarmctl_reply --socket --help
            else
                _alarmctl_reply "${_alarmctl_remind_commands[@]}"
            fi
            return 0
            ;;
        help\ *)
            return 0
            ;;
    esac

    if ((!ended)) && [[ $cur == -* ]]; then
        local -a options
        read -ra options <<<"$(_alarmctl_options "$command" | tr '\n' ' ')"
        _alarmctl_reply "${options[@]}"
        return 0
    fi

    # Positional arguments.
    local -a ids
    case $command in
        show | edit | skip | unskip)
            ((positionals == 0)) && mapfile -t ids < <(_alarmctl_ids alarms) && _alarmctl_reply "${ids[@]}" ;;
        rm | enable | disable)
            mapfile -t ids < <(_alarmctl_ids alarms) && _alarmctl_reply "${ids[@]}" ;;
        snooze | dismiss)
            ((positionals == 0)) && mapfile -t ids < <(_alarmctl_ids all) && _alarmctl_reply "${ids[@]}" ;;
        "remind show" | "remind done" | "remind undone" | "remind rm" | "remind edit" | "remind move")
            ((positionals == 0)) && mapfile -t ids < <(_alarmctl_ids reminders) && _alarmctl_reply "${ids[@]}" ;;
        export | import)
            if ((positionals == 0)); then
                compopt -o filenames 2>/dev/null
                local -a files
                mapfile -t files < <(compgen -f -- "$cur")
                _alarmctl_reply - "${files[@]}"
            fi
            ;;
    esac
    return 0
}

complete -F _alarmctl alarmctl
