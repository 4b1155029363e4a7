# fish completion for alarmctl(1), the command line of alarmd.
#
# Install as /usr/share/fish/vendor_completions.d/alarmctl.fish or
# ~/.config/fish/completions/alarmctl.fish. Item ids and sound names come from
# the running daemon; when it is not running they do not complete.

set -g __alarmctl_value_options --socket --days --label --sound --snooze --max-snoozes --ring --tz \
    --command --time --minutes --count --from --at --in --notes --image --title

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

# True when the command is one of the arguments and no positional follows it yet.
function __alarmctl_first_arg
    set -l state (__alarmctl_state)
    contains -- $state[1] $argv; and test $state[2] -eq 0
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

# Item ids (the 8 characters tables show), described by time and label or title.
function __alarmctl_ids
    if test "$argv[1]" != reminders
        __alarmctl_query list --json |
            grep -o '"id":"[0-9a-f-]*","time":"[^"]*","days":\[[^]]*\],"repeat":"[^"]*","label":"\([^"\\\\]\|\\\\.\)*"' |
            sed 's/^"id":"\(........\)[^"]*","time":"\([^"]*\)".*"label":"\(.*\)"$/\1\talarm \2 \3/'
    end
    if test "$argv[1]" != alarms
        __alarmctl_query remind list --all --json |
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

# Repeat-day words, after what is already typed up to the last comma.
function __alarmctl_days
    set -l token (string replace -r -- '^--days=' '' (commandline -ct))
    set -l base ''
    string match -q -- '*,*' $token; and set base (string replace -r -- '[^,]*$' '' $token)
    printf "$base%s\n" weekdays\t'Monday to Friday' weekends\t'Saturday and Sunday' daily\t'every day' \
        every-day\t'every day' never\t'one-shot' mon tue wed thu fri sat sun \
        monday tuesday wednesday thursday friday saturday sunday
end

complete -c alarmctl -f

# Commands.
set -l commands list show add edit rm enable disable skip unskip remind snooze dismiss next status watch sounds export import preview help
complete -c alarmctl -n '__alarmctl_using ""' -l socket -r -F -d 'alarmd socket'
complete -c alarmctl -n '__alarmctl_using "" remind' -s h -l help -d 'Show help'
complete -c alarmctl -n '__alarmctl_using "" help' -a list -d 'List the alarms'
complete -c alarmctl -n '__alarmctl_using "" help' -a show -d 'Show every setting of one alarm'
complete -c alarmctl -n '__alarmctl_using "" help' -a add -d 'Create an alarm'
complete -c alarmctl -n '__alarmctl_using "" help' -a edit -d 'Change some settings of an alarm'
complete -c alarmctl -n '__alarmctl_using "" help' -a rm -d 'Delete alarms'
complete -c alarmctl -n '__alarmctl_using "" help' -a enable -d 'Switch alarms on'
complete -c alarmctl -n '__alarmctl_using "" help' -a disable -d 'Switch alarms off'
complete -c alarmctl -n '__alarmctl_using "" help' -a skip -d 'Pass over the next occurrence'
complete -c alarmctl -n '__alarmctl_using "" help' -a unskip -d 'Let the next occurrence ring'
complete -c alarmctl -n '__alarmctl_using "" help' -a remind -d 'The to-do list with due times'
complete -c alarmctl -n '__alarmctl_using "" help' -a snooze -d 'Snooze a ringing item'
complete -c alarmctl -n '__alarmctl_using "" help' -a dismiss -d 'Stop a ringing or snoozed item'
complete -c alarmctl -n '__alarmctl_using "" help' -a next -d 'Show the next firings'
complete -c alarmctl -n '__alarmctl_using "" help' -a status -d 'Show what rings and what comes next'
complete -c alarmctl -n '__alarmctl_using "" help' -a watch -d 'Print events as they happen'
complete -c alarmctl -n '__alarmctl_using "" help' -a sounds -d 'List the sound-theme sounds'
complete -c alarmctl -n '__alarmctl_using "" help' -a export -d 'Write everything as JSON'
complete -c alarmctl -n '__alarmctl_using "" help' -a import -d 'Replace everything from an export'
complete -c alarmctl -n '__alarmctl_using "" help' -a preview -d 'When an alarm would fire (no daemon)'
complete -c alarmctl -n '__alarmctl_using ""' -a help -d 'Show help for a command'

# remind subcommands (also after "help remind").
complete -c alarmctl -n '__alarmctl_using remind "help remind"' -a add -d 'Add a reminder'
complete -c alarmctl -n '__alarmctl_using remind "help remind"' -a list -d 'List open reminders'
complete -c alarmctl -n '__alarmctl_using remind "help remind"' -a show -d 'Show one reminder'
complete -c alarmctl -n '__alarmctl_using remind "help remind"' -a done -d 'Mark a reminder done'
complete -c alarmctl -n '__alarmctl_using remind "help remind"' -a undone -d 'Mark a reminder not done'
complete -c alarmctl -n '__alarmctl_using remind "help remind"' -a rm -d 'Delete a reminder'
complete -c alarmctl -n '__alarmctl_using remind "help remind"' -a edit -d 'Change a reminder'
complete -c alarmctl -n '__alarmctl_using remind "help remind"' -a move -d 'Move a reminder in the list'
complete -c alarmctl -n '__alarmctl_using remind' -l socket -r -F -d 'alarmd socket'

# Options every command has.
set -l daemon_commands list show add edit rm enable disable skip unskip snooze dismiss next status watch sounds export import \
    'remind add' 'remind list' 'remind show' 'remind done' 'remind undone' 'remind rm' 'remind edit' 'remind move'
set -l json_commands list show add edit enable disable skip unskip snooze dismiss next status watch sounds import preview \
    'remind add' 'remind list' 'remind show' 'remind done' 'remind undone' 'remind edit' 'remind move'
complete -c alarmctl -n "__alarmctl_using "(string escape -- $daemon_commands preview | string join ' ') -s h -l help -d 'Show the command help'
complete -c alarmctl -n "__alarmctl_using "(string escape -- $daemon_commands | string join ' ') -l socket -r -F -d 'alarmd socket'
complete -c alarmctl -n "__alarmctl_using "(string escape -- $json_commands | string join ' ') -l json -d 'Print the reply as one line of JSON'

# Alarm fields (add, edit).
complete -c alarmctl -n '__alarmctl_using add edit preview' -l days -x -a '(__alarmctl_days)' -d 'Repeat days'
complete -c alarmctl -n '__alarmctl_using add edit' -l label -x -d 'What the alarm is for'
complete -c alarmctl -n '__alarmctl_using add edit' -l sound -x -a '(__alarmctl_sounds)' -d 'Sound name, absolute path or none'
complete -c alarmctl -n '__alarmctl_using add edit' -l snooze -x -d 'Allow snoozing for MINUTES (1-60)'
complete -c alarmctl -n '__alarmctl_using add edit' -l no-snooze -d 'Do not offer snooze'
complete -c alarmctl -n '__alarmctl_using add edit' -l max-snoozes -x -d 'Snoozes per occurrence (0: no limit)'
complete -c alarmctl -n '__alarmctl_using add edit' -l ring -x -d 'Ring this long (seconds or 5m)'
complete -c alarmctl -n '__alarmctl_using add edit preview' -l tz -x -a '(__alarmctl_zones)' -d 'IANA time zone'
complete -c alarmctl -n '__alarmctl_using add edit "remind add" "remind edit"' -l command -x -a '(__fish_complete_command)' -d 'Run this when it fires (no shell)'
complete -c alarmctl -n '__alarmctl_using add edit' -l disabled -d 'Switched off'
complete -c alarmctl -n '__alarmctl_using edit' -l time -x -d 'The new time of day'
complete -c alarmctl -n '__alarmctl_using edit "remind edit"' -l no-command -d 'Remove the command'
complete -c alarmctl -n '__alarmctl_using edit' -l enabled -d 'Switch it on'

# Other options.
complete -c alarmctl -n '__alarmctl_using snooze' -l minutes -x -d 'Snooze for N minutes (1-60)'
complete -c alarmctl -n '__alarmctl_using next preview' -l count -x -d 'How many'
complete -c alarmctl -n '__alarmctl_using preview' -l from -x -d 'Start after WHEN'
complete -c alarmctl -n '__alarmctl_using "remind add" "remind edit"' -l at -x -d 'Due at WHEN'
complete -c alarmctl -n '__alarmctl_using "remind add" "remind edit"' -l in -x -d 'Due DURATION from now'
complete -c alarmctl -n '__alarmctl_using "remind add" "remind edit"' -l notes -x -d 'More text'
complete -c alarmctl -n '__alarmctl_using "remind add" "remind edit"' -l image -r -F -d 'Image shown with the notification'
complete -c alarmctl -n '__alarmctl_using "remind list"' -l all -d 'Include reminders that are done'
complete -c alarmctl -n '__alarmctl_using "remind edit"' -l title -x -d 'The new title'
complete -c alarmctl -n '__alarmctl_using "remind edit"' -l no-due -d 'Remove the due time'
complete -c alarmctl -n '__alarmctl_using "remind edit"' -l no-image -d 'Remove the image'

# Positional arguments: ids and files.
complete -c alarmctl -n '__alarmctl_first_arg show edit skip unskip' -a '(__alarmctl_ids alarms)'
complete -c alarmctl -n '__alarmctl_using rm enable disable' -a '(__alarmctl_ids alarms)'
complete -c alarmctl -n '__alarmctl_first_arg snooze dismiss' -a '(__alarmctl_ids all)'
complete -c alarmctl -n '__alarmctl_first_arg "remind show" "remind done" "remind undone" "remind rm" "remind edit" "remind move"' -a '(__alarmctl_ids reminders)'
complete -c alarmctl -n '__alarmctl_first_arg export import' -F -a - -d 'Standard output or input'
