// SPDX-License-Identifier: Apache-2.0
/// The fish completion script, `alarmctl completions fish`: one `complete`
/// line per option (shared by the commands that declare it alike) and per
/// kind of positional argument, written from the command table.
struct FishCompletion {
    let table: CommandTable

    var script: String {
        var lines = [
            Self.header,
            "set -g __alarmctl_value_options " + table.valueOptionNames.map { "--" + $0 }.spaced,
            Self.functions,
            "# Repeat-day words, after what is already typed up to the last comma.",
            "function __alarmctl_days",
            "    set -l token (string replace -r -- '^--days=' '' (commandline -ct))",
            "    set -l base ''",
            "    string match -q -- '*,*' $token; and set base (string replace -r -- '[^,]*$' '' $token)",
            "    printf \"$base%s\\n\" " + ValueKind.dayWords.map { word in
                ValueKind.dayWordMeanings[word].map { word + "\\t" + ShellWord.fishQuoted($0) } ?? word
            }.spaced,
            "end",
            "",
            "complete -c alarmctl -f",
            "",
            "# Commands.",
            complete(when: "__alarmctl_using \"\"", "-l \(Option.socket.name) -r -F", Option.socket.help),
            complete(when: "__alarmctl_using \"\" " + table.groups.map(\.name).spaced, "-s \(Option.help.short!) -l \(Option.help.name)", "show help"),
        ]
        for word in table.firstWords where word.name != CommandTable.helpWord.name {
            lines.append(complete(when: "__alarmctl_using \"\" help", "-a \(word.name)", word.summary))
        }
        lines.append(complete(when: "__alarmctl_using \"\"", "-a \(CommandTable.helpWord.name)", CommandTable.helpWord.summary))
        for group in table.groups {
            lines += ["", "# \(group.name) subcommands (also after \"help \(group.name)\")."]
            for word in table.subcommands(of: group) {
                lines.append(complete(when: "__alarmctl_using \(group.name) \"help \(group.name)\"", "-a \(word.name)", word.summary))
            }
            lines.append(complete(when: "__alarmctl_using \(group.name)", "-l \(Option.socket.name) -r -F", Option.socket.help))
        }
        lines += ["", "# Options."]
        lines.append(complete(when: "__alarmctl_using " + names(table.commands), "-s \(Option.help.short!) -l \(Option.help.name)", "show the command help"))
        var options: [Option] = []
        for option in table.commands.flatMap(\.options) where !options.contains(option) { options.append(option) }
        for option in options {
            let commands = table.commands.filter { $0.options.contains(option) }
            lines.append(complete(when: "__alarmctl_using " + names(commands), "-l \(option.name)" + (option.value.map { " " + Self.values($0.kind) } ?? ""), option.help))
        }
        lines += ["", "# Positional arguments."]
        var arguments: [(position: String, kind: ValueKind, commands: [CommandSpec])] = []
        for command in table.commands {
            for (index, positional) in command.positionals.enumerated() where positional.kind.hasCandidates {
                let position = "\(index)" + (positional.isRepeated ? "+" : "")
                if let found = arguments.firstIndex(where: { $0.position == position && $0.kind == positional.kind }) {
                    arguments[found].commands.append(command)
                } else {
                    arguments.append((position, positional.kind, [command]))
                }
            }
        }
        for argument in arguments {
            lines.append("complete -c alarmctl -n " + ShellWord.fishQuoted("__alarmctl_arg \(argument.position) " + names(argument.commands)) + " " + Self.values(argument.kind))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func complete(when condition: String, _ what: String, _ description: String) -> String {
        "complete -c alarmctl -n " + ShellWord.fishQuoted(condition) + " " + what + " -d " + ShellWord.fishQuoted(description)
    }

    private func names(_ commands: [CommandSpec]) -> String {
        commands.map { $0.name.contains(" ") ? "\"\($0.name)\"" : $0.name }.spaced
    }

    /// The `complete` arguments that offer a kind's values.
    private static func values(_ kind: ValueKind) -> String {
        switch kind {
        case .days: return "-x -a '(__alarmctl_days)'"
        case .sound: return "-x -a '(__alarmctl_sounds)'"
        case .zone: return "-x -a '(__alarmctl_zones)'"
        case .file: return "-r -F"
        case .fileOrStandardStream: return "-r -F -a -"
        case .commandLine: return "-x -a '(__fish_complete_command)'"
        case .alarmID: return "-x -a '(__alarmctl_ids alarms)'"
        case .reminderID: return "-x -a '(__alarmctl_ids reminders)'"
        case .openReminderID: return "-x -a '(__alarmctl_ids open)'"
        case .itemID: return "-x -a '(__alarmctl_ids all)'"
        case .choice(let words): return "-x -a " + ShellWord.fishQuoted(words.spaced)
        case .timeOfDay, .instant, .duration, .date, .interval, .number, .text: return "-x"
        }
    }

    private static let header = #"""
        # fish completion for alarmctl(1), the command line of alarmd.
        # Generated by `alarmctl completions fish` from alarmctl's command table: do not edit.
        #
        # Install as /usr/share/fish/vendor_completions.d/alarmctl.fish or
        # ~/.config/fish/completions/alarmctl.fish. Item ids and sound names come from
        # the running daemon; when it is not running they do not complete.

        """#

    private static let functions = #"""

        # Prints the command ("add", "remind add", "help remind", ...) on the first
        # line and the number of positional arguments after it on the second.
        function __alarmctl_state
            set -l tokens (commandline -opc)
            set -e tokens[1]
            set -l command ''
            set -l positionals 0
            set -l skip 0
            set -l ended 0
            for token in $tokens
                if test $skip -eq 1
                    set skip 0
                    continue
                end
                if test $ended -eq 0
                    if test "$token" = --
                        set ended 1
                        continue
                    end
                    if string match -q -- '-?*' $token
                        contains -- $token $__alarmctl_value_options; and set skip 1
                        continue
                    end
                end
                if test -z "$command"
                    set command $token
                else if contains -- $command remind help 'help remind'
                    set command "$command $token"
                else
                    set positionals (math $positionals + 1)
                end
            end
            printf '%s\n%s\n' $command $positionals
        end

        # True when the command is one of the arguments.
        function __alarmctl_using
            set -l state (__alarmctl_state)
            contains -- $state[1] $argv
        end

        # True when the command is one of the arguments after the first, and the
        # argument being typed is positional number N (from 0), or any from N on
        # when the first argument is N+.
        function __alarmctl_arg
            set -l state (__alarmctl_state)
            contains -- $state[1] $argv[2..-1]; or return 1
            set -l index (string trim -r -c + -- $argv[1])
            if string match -q -- '*+' $argv[1]
                test $state[2] -ge $index
            else
                test $state[2] -eq $index
            end
        end

        # Runs alarmctl quietly, against the --socket given on the command line if any.
        function __alarmctl_query
            set -l tokens (commandline -opc)
            set -l prog $tokens[1]
            set -l sock
            for i in (seq 2 (count $tokens))
                switch $tokens[$i]
                    case --socket
                        set -l next (math $i + 1)
                        set -q tokens[$next]; and set sock --socket $tokens[$next]
                    case '--socket=*'
                        set sock --socket (string replace -- --socket= '' $tokens[$i])
                end
            end
            if not string match -q -- '*/*' $prog; or not test -x "$prog"
                set prog (command -s alarmctl); or return 0
            end
            if command -q timeout
                command timeout 2 $prog $sock $argv 2>/dev/null
            else
                command $prog $sock $argv 2>/dev/null
            end
        end

        # Item ids (the 8 characters tables show), described by time and label or
        # title: alarms, reminders, both (all), or reminders not done yet (open).
        function __alarmctl_ids
            set -l all --all
            test "$argv[1]" = open; and set all
            if contains -- "$argv[1]" alarms all
                __alarmctl_query list --json |
                    grep -o '"id":"[0-9a-f-]*","time":"[^"]*","days":\[[^]]*\],"repeat":"[^"]*","label":"\([^"\\\\]\|\\\\.\)*"' |
                    sed 's/^"id":"\(........\)[^"]*","time":"\([^"]*\)".*"label":"\(.*\)"$/\1\talarm \2 \3/'
            end
            if test "$argv[1]" != alarms
                # Timers, in the same reply, are alarmctl timer's, except
                # among every item (what rings).
                set -l drop '"timer":true'
                test "$argv[1]" = all; and set drop '^$'
                __alarmctl_query remind list $all --json |
                    sed 's/},{"id"/}\n{"id"/g' | grep -v -- $drop |
                    grep -o '"id":"[0-9a-f-]*","title":"\([^"\\\\]\|\\\\.\)*"' |
                    sed 's/^"id":"\(........\)[^"]*","title":"\(.*\)"$/\1\treminder \2/'
            end
        end

        function __alarmctl_sounds
            echo none
            __alarmctl_query sounds --json | string match -ar '"name":"[^"]*"' | string sub -s 9 | string trim -c '"'
        end

        function __alarmctl_zones
            for tab in /usr/share/zoneinfo/zone1970.tab /usr/share/zoneinfo/zone.tab
                if test -r $tab
                    string match -rv '^#' <$tab | string split -f 3 \t
                    break
                end
            end
            echo UTC
        end

        """#
}
