// SPDX-License-Identifier: Apache-2.0
/// The bash completion script, `alarmctl completions bash`: the commands,
/// options and argument kinds come from the command table; the shell code that
/// reads the command line and asks the daemon is fixed text.
struct BashCompletion {
    let table: CommandTable

    var script: String {
        var lines = [Self.header, "_alarmctl_commands=(" + table.firstWords.map { ShellWord.bare($0.name) }.spaced + ")"]
        for group in table.groups {
            lines.append("_alarmctl_\(group.name)_commands=(" + table.subcommands(of: group).map { ShellWord.bare($0.name) }.spaced + ")")
        }
        lines.append("_alarmctl_day_words=(" + ValueKind.dayWords.spaced + ")")
        lines += ["", "# The options of one command (\"add\", \"remind add\", ...), help included.", "_alarmctl_options() {", "    case $1 in"]
        lines += optionCases
        lines += ["    esac", "    echo \"--\(Option.help.name)\"", "}"]
        lines += ["", "# Options that take a value (the next word, or after \"=\").", "_alarmctl_takes_value() {", "    case $1 in"]
        lines.append("        " + table.valueOptionNames.map { "--" + $0 }.joined(separator: " | ") + ") return 0 ;;")
        lines += ["    esac", "    return 1", "}"]
        lines += ["", "# The kind of value an option takes (one per option name), when there is anything to offer.", "_alarmctl_option_kind() {", "    case $1 in"]
        lines += optionKindCases
        lines += ["    esac", "}"]
        lines += ["", "# The kind of command $1's positional argument number $2 (from 0), if it has one.", "_alarmctl_positional_kind() {"]
        lines += ["    local -a kinds=()", "    local repeated=0 index=$2", "    case $1 in"]
        lines += positionalCases
        lines += ["    esac", "    ((repeated && index >= ${#kinds[@]})) && index=$((${#kinds[@]} - 1))"]
        lines += ["    ((index < ${#kinds[@]})) && echo \"${kinds[index]}\"", "    return 0", "}", Self.body]
        return lines.joined(separator: "\n") + "\n"
    }

    /// One case arm per distinct list of options: `list | show | ...) echo "--json --socket" ;;`.
    private var optionCases: [String] {
        var arms: [(names: [String], options: String)] = []
        for command in table.commands {
            let options = command.options.map { "--" + $0.name }.spaced
            if let index = arms.firstIndex(where: { $0.options == options }) {
                arms[index].names.append(command.name)
            } else {
                arms.append(([command.name], options))
            }
        }
        return arms.map { arm in
            "        " + arm.names.map(ShellWord.bare).joined(separator: " | ") + (arm.options.isEmpty ? ") ;;" : ") echo \"\(arm.options)\" ;;")
        }
    }

    private var optionKindCases: [String] {
        var arms: [(kind: String, names: [String])] = []
        for name in table.valueOptionNames {
            guard let kind = table.kind(ofOptionNamed: name), kind.hasCandidates else { continue }
            let kindName = Self.kindName(kind)
            if let index = arms.firstIndex(where: { $0.kind == kindName }) {
                arms[index].names.append("--" + name)
            } else {
                arms.append((kindName, ["--" + name]))
            }
        }
        return arms.map { "        " + $0.names.joined(separator: " | ") + ") echo \($0.kind) ;;" }
    }

    private var positionalCases: [String] {
        var arms: [(names: [String], body: String)] = []
        for command in table.commands where command.positionals.contains(where: { $0.kind.hasCandidates }) {
            var body = "kinds=(" + command.positionals.map { Self.kindName($0.kind) }.spaced + ")"
            if command.positionals.contains(where: \.isRepeated) { body += " repeated=1" }
            if let index = arms.firstIndex(where: { $0.body == body }) {
                arms[index].names.append(command.name)
            } else {
                arms.append(([command.name], body))
            }
        }
        return arms.map { "        " + $0.names.map(ShellWord.bare).joined(separator: " | ") + ") \($0.body) ;;" }
    }

    /// The name each value kind goes by inside the script.
    private static func kindName(_ kind: ValueKind) -> String {
        switch kind {
        case .timeOfDay: return "time"
        case .instant: return "when"
        case .duration: return "duration"
        case .date: return "date"
        case .interval: return "interval"
        case .days: return "days"
        case .sound: return "sound"
        case .alarmID: return "alarm-id"
        case .reminderID: return "reminder-id"
        case .openReminderID: return "open-reminder-id"
        case .itemID: return "item-id"
        case .file: return "file"
        case .fileOrStandardStream: return "file-or-stream"
        case .zone: return "zone"
        case .commandLine: return "command"
        case .number: return "number"
        case .text: return "text"
        case .choice(let words): return "choice:" + words.joined(separator: ",")
        }
    }

    private static let header = #"""
        # bash completion for alarmctl(1), the command line of alarmd.
        # Generated by `alarmctl completions bash` from alarmctl's command table: do not edit.
        #
        # Install as /usr/share/bash-completion/completions/alarmctl, or source it from
        # ~/.bashrc. Item ids and sound names come from the running daemon
        # (alarmctl list --json, remind list --all --json, sounds --json); when it is
        # not running, those simply do not complete. jq is not needed.

        """#

    private static let body = #"""

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

        # The reminder list's reply without its timers (alarmctl timer's): one
        # item a line, theirs left out.
        _alarmctl_no_timers() {
            sed 's/},{"id"/}\n{"id"/g' | grep -v '"timer":true'
        }

        # The 8-character id prefixes that tables show: alarms, reminders, both
        # (all: what rings, timers too), or reminders not done yet (open).
        _alarmctl_ids() {
            {
                [[ $1 == alarms || $1 == all ]] && _alarmctl_query list --json
                [[ $1 == all ]] && _alarmctl_query remind list --all --json
                [[ $1 == reminders ]] && _alarmctl_query remind list --all --json | _alarmctl_no_timers
                [[ $1 == open ]] && _alarmctl_query remind list --json | _alarmctl_no_timers
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

        # Offers the values of a kind (see _alarmctl_option_kind): $1 the kind, $2
        # what goes before each value in the word ("--days=" or nothing), $3 the
        # value typed so far.
        _alarmctl_values() {
            local kind=$1 prefix=$2 cur=$3 value
            local -a values=()
            case $kind in
                days)
                    local base=''
                    [[ $cur == *,* ]] && base=${cur%,*},
                    for value in "${_alarmctl_day_words[@]}"; do values+=("$prefix$base$value"); done
                    ;;
                sound)
                    if [[ $cur == /* ]]; then
                        compopt -o filenames 2>/dev/null
                        while IFS= read -r value; do values+=("$prefix$value"); done < <(compgen -f -- "$cur")
                    else
                        while IFS= read -r value; do values+=("$prefix$value"); done < <(_alarmctl_sounds)
                    fi
                    ;;
                zone)
                    while IFS= read -r value; do values+=("$prefix$value"); done < <(_alarmctl_zones)
                    ;;
                file | file-or-stream)
                    compopt -o filenames 2>/dev/null
                    [[ $kind == file-or-stream ]] && values+=("$prefix-")
                    while IFS= read -r value; do values+=("$prefix$value"); done < <(compgen -f -- "$cur")
                    ;;
                command)
                    while IFS= read -r value; do values+=("$prefix$value"); done < <(compgen -c -- "$cur" | sort -u)
                    ;;
                alarm-id | reminder-id | open-reminder-id | item-id)
                    local which=all
                    [[ $kind == alarm-id ]] && which=alarms
                    [[ $kind == reminder-id ]] && which=reminders
                    [[ $kind == open-reminder-id ]] && which=open
                    while IFS= read -r value; do values+=("$prefix$value"); done < <(_alarmctl_ids $which)
                    ;;
                choice:*)
                    local -a words
                    IFS=, read -ra words <<<"${kind#choice:}"
                    for value in "${words[@]}"; do values+=("$prefix$value"); done
                    ;;
                *) return 0 ;; # free text, numbers, times: nothing to offer
            esac
            _alarmctl_reply "${values[@]}"
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
                _alarmctl_values "$(_alarmctl_option_kind "$option")" "$value_prefix" "$cur"
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

            _alarmctl_values "$(_alarmctl_positional_kind "$command" "$positionals")" '' "$cur"
            return 0
        }

        complete -F _alarmctl alarmctl
        """#
}
