import AlarmCLI
import Glibc

exit(AlarmControl.run(Array(CommandLine.arguments.dropFirst()), context: .process()))
