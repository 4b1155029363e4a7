import Glibc

exit(WakeHelper.main(arguments: Array(CommandLine.arguments.dropFirst())))
