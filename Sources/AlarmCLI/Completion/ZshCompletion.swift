// SPDX-License-Identifier: Apache-2.0
/// The zsh completion script, `alarmctl completions zsh`: one `_arguments`
/// call per command, written from the command table; the helpers that ask the
/// daemon are fixed text.
struct ZshCompletion {
    let table: CommandTable

    var script: String {
        var lines = [Self.header, "", "(( $+functions[_alarmctl_days] )) ||", "_alarmctl_days() {", "  _values -s , 'repeat days' \\"]
        lines += ValueKind.dayWords.map { word in
            "    " + (ValueKind.dayWordMeanings[word].map { ShellWord.singleQuoted(word + "[" + Self.escaped($0) + "]") } ?? word) + " \\"
        }
        lines[lines.count - 1].removeLast(2)
        lines.append("}")
        lines += describer("_alarmctl_commands", tag: "alarmctl command", words: table.firstWords)
        for group in table.groups {
            lines += describer("_alarmctl_\(group.name)_commands", tag: "\(group.name) subcommand", words: table.subcommands(of: group))
        }
        lines += [Self.mainStart]
        for command in table.commands where !command.name.contains(" ") {
            lines.append(arm(command, indent: "    "))
        }
        lines.append(helpArm)
        for group in table.groups {
            lines += [
                "    (\(group.name))",
                "      _arguments -C \(Self.helpSpec("show help")) \(optionSpec(.socket, in: nil)) \\",
                "        '1: :_alarmctl_\(group.name)_commands' '*:: :->\(group.name)_args' && ret=0",
                "      [[ $state == \(group.name)_args ]] || return ret",
                "      curcontext=${curcontext%:*}-$words[1]:",
                "      case $words[1] in",
            ]
            for command in table.commands where command.name.hasPrefix(group.name + " ") {
                lines.append(arm(command, indent: "        ", word: String(command.name.dropFirst(group.name.count + 1))))
            }
            lines += ["      esac", "      ;;"]
        }
        lines += ["  esac", "  return ret", "}", "", "_alarmctl \"$@\""]
        return lines.joined(separator: "\n") + "\n"
    }

    private func describer(_ function: String, tag: String, words: [CommandTable.Word]) -> [String] {
        ["", "(( $+functions[\(function)] )) ||", "\(function)() {", "  local -a cmds", "  cmds=("]
            + words.map { "    " + ShellWord.singleQuoted($0.name + ":" + Self.sentence($0.summary)) }
            + ["  )", "  _describe -t commands \(ShellWord.singleQuoted(tag)) cmds", "}"]
    }

    private var helpArm: String {
        let groups = table.groups.map { group in
            "\n      [[ $state == help_sub && $words[2] == \(group.name) ]] && _alarmctl_\(group.name)_commands && ret=0"
        }.joined()
        return "    (help)\n      _arguments '1: :_alarmctl_commands' '2: :->help_sub' && ret=0" + groups + " ;;"
    }

    /// `(add)` and its `_arguments` call: help, every option, every positional.
    private func arm(_ command: CommandSpec, indent: String, word: String? = nil) -> String {
        var specs = [Self.helpSpec("show the command help")]
        specs += command.options.map { optionSpec($0, in: command) }
        for (index, positional) in command.positionals.enumerated() {
            let position = positional.isRepeated ? "*" : "\(index + 1)" + (positional.isOptional ? ":" : "")
            let spec = position + ":" + Self.escaped(Self.message(positional.kind, name: positional.name.lowercased())) + ":" + Self.action(positional.kind)
            specs.append(ShellWord.singleQuoted(spec))
        }
        let call = specs.joined(separator: " \\\n\(indent)    ")
        return "\(indent)(\(word ?? command.name))\n\(indent)  _arguments \(call) && ret=0 ;;"
    }

    /// `'(--no-snooze)--snooze=[allow snoozing…]:minutes: '`.
    private func optionSpec(_ option: Option, in command: CommandSpec?) -> String {
        let others = command?.alternatives.filter { $0.options.contains(option) }.flatMap(\.options).filter { $0 != option } ?? []
        var spec = others.isEmpty ? "" : "(" + others.map { "--" + $0.name }.spaced + ")"
        spec += "--" + option.name
        if let value = option.value {
            spec += "=[" + Self.escaped(option.help) + "]:" + Self.escaped(Self.message(value.kind, name: option.name)) + ":" + Self.action(value.kind)
        } else {
            spec += "[" + Self.escaped(option.help) + "]"
        }
        return ShellWord.singleQuoted(spec)
    }

    private static func helpSpec(_ text: String) -> String {
        "'(- *)'{-\(Option.help.short!),--\(Option.help.name)}'[\(text)]'"
    }

    /// What zsh shows above the candidates, or alone when there are none.
    private static func message(_ kind: ValueKind, name: String) -> String {
        switch kind {
        case .timeOfDay: return "time of day (7:30, 19:05, 7pm)"
        case .instant: return "when (ISO 8601, YYYY-MM-DD HH:MM or a time of day)"
        case .duration: return "duration (90s, 25m, 2h, 1d, 1h30m)"
        case .date: return "date (YYYY-MM-DD)"
        case .interval: return "days or weeks (3d, 2w)"
        case .days: return "repeat days"
        case .sound: return "sound"
        case .alarmID: return "alarm id"
        case .reminderID: return "reminder id"
        case .openReminderID: return "id of a reminder not done"
        case .itemID: return "ringing item id"
        case .fileOrStandardStream: return "file (- for standard input or output)"
        case .zone: return "time zone"
        case .commandLine: return "command line"
        case .file, .number, .text, .choice: return name
        }
    }

    private static func action(_ kind: ValueKind) -> String {
        switch kind {
        case .days: return "_alarmctl_days"
        case .sound: return "_alarmctl_sounds"
        case .zone: return "_alarmctl_zones"
        case .file: return "_files"
        case .fileOrStandardStream: return "_alarmctl_files_or_stream"
        case .commandLine: return "_command_names -e"
        case .alarmID: return "_alarmctl_alarm_ids"
        case .reminderID: return "_alarmctl_reminder_ids"
        case .openReminderID: return "_alarmctl_open_reminder_ids"
        case .itemID: return "_alarmctl_any_ids"
        case .choice(let words): return "(" + words.spaced + ")"
        case .timeOfDay, .instant, .duration, .date, .interval, .number, .text: return " "
        }
    }

    /// `[`, `]`, `:` and `\` mean something inside an `_arguments` spec.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if "[]:\\".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// A summary as a description: no closing period.
    private static func sentence(_ summary: String) -> String {
        summary.hasSuffix(".") ? String(summary.dropLast()) : summary
    }

    private static let header = #"""
        #compdef alarmctl
        # zsh completion for alarmctl(1), the command line of alarmd.
        # Generated by `alarmctl completions zsh` from alarmctl's command table: do not edit.
        #
        # Install in a directory on $fpath (for example
        # /usr/share/zsh/vendor-completions/_alarmctl). Item ids and sound names come
        # from the running daemon; when it is not running they do not complete.

        # Runs alarmctl quietly, against the --socket given on the command line if any.
        (( $+functions[_alarmctl_query] )) ||
        _alarmctl_query() {
          local -a sock
          local i prog=${(Q)_alarmctl_line[1]}
          for (( i = 2; i <= $#_alarmctl_line; i++ )); do
            case $_alarmctl_line[i] in
              (--socket) sock=(--socket ${(Q)_alarmctl_line[i+1]}) ;;
              (--socket=*) sock=(--socket ${(Q)_alarmctl_line[i]#--socket=}) ;;
            esac
          done
          [[ $prog == */* && -x ${~prog} ]] && prog=${~prog} || prog=${commands[alarmctl]}
          [[ -n $prog ]] || return 0
          if (( $+commands[timeout] )); then
            timeout 2 $prog $sock "$@" 2>/dev/null
          else
            $prog $sock "$@" 2>/dev/null
          fi
        }

        # Item ids (the 8 characters tables show) with the time and label or the
        # title: alarms, reminders, both (all), or reminders not done yet (open).
        (( $+functions[_alarmctl_ids] )) ||
        _alarmctl_ids() {
          local -a items
          local all=--all
          [[ $1 == open ]] && all=
          if [[ $1 == alarms || $1 == all ]]; then
            items+=(${(f)"$(_alarmctl_query list --json |
              grep -o '"id":"[0-9a-f-]*","time":"[^"]*","days":\[[^]]*\],"repeat":"[^"]*","label":"\([^"\\]\|\\.\)*"' |
              sed 's/^"id":"\(........\)[^"]*","time":"\([^"]*\)".*"label":"\(.*\)"$/\1:alarm \2 \3/')"})
          fi
          if [[ $1 != alarms ]]; then
            # Timers, in the same reply, are alarmctl timer's, except among
            # every item (what rings).
            local drop='"timer":true'
            [[ $1 == all ]] && drop='^$'
            items+=(${(f)"$(_alarmctl_query remind list $all --json |
              sed 's/},{"id"/}\n{"id"/g' | grep -v -- "$drop" |
              grep -o '"id":"[0-9a-f-]*","title":"\([^"\\]\|\\.\)*"' |
              sed 's/^"id":"\(........\)[^"]*","title":"\(.*\)"$/\1:reminder \2/')"})
          fi
          _describe -t ids 'id' items
        }

        (( $+functions[_alarmctl_alarm_ids] )) || _alarmctl_alarm_ids() { _alarmctl_ids alarms }
        (( $+functions[_alarmctl_reminder_ids] )) || _alarmctl_reminder_ids() { _alarmctl_ids reminders }
        (( $+functions[_alarmctl_open_reminder_ids] )) || _alarmctl_open_reminder_ids() { _alarmctl_ids open }
        (( $+functions[_alarmctl_any_ids] )) || _alarmctl_any_ids() { _alarmctl_ids all }

        (( $+functions[_alarmctl_sounds] )) ||
        _alarmctl_sounds() {
          if [[ $PREFIX == /* ]]; then
            _files
          else
            local -a sounds
            sounds=(none ${(f)"$(_alarmctl_query sounds --json | grep -o '"name":"[^"]*"' | cut -c9- | tr -d '"')"})
            _wanted sounds expl 'sound' compadd -a sounds
          fi
        }

        (( $+functions[_alarmctl_zones] )) ||
        _alarmctl_zones() {
          if (( $+functions[_time_zone] )); then
            _time_zone
          else
            _message 'IANA time zone'
          fi
        }

        # A file, or - for standard input or output.
        (( $+functions[_alarmctl_files_or_stream] )) ||
        _alarmctl_files_or_stream() {
          _alternative 'streams:standard input or output:(-)' 'files:file:_files'
        }
        """#

    private static let mainStart = #"""

        _alarmctl() {
          local curcontext=$curcontext state state_descr line ret=1
          local -a opt_args
          local -a _alarmctl_line
          _alarmctl_line=("${words[@]}")

          _arguments -C \
            '(- *)'{-h,--help}'[show help]' \
            '--socket=[alarmd socket]:socket:_files' \
            '1: :_alarmctl_commands' \
            '*:: :->args' && ret=0

          [[ $state == args ]] || return ret
          curcontext=${curcontext%:*:*}:alarmctl-$words[1]:

          case $words[1] in
        """#
}
