import AlarmCLI
import Foundation

exit(AlarmControl.run(Array(CommandLine.arguments.dropFirst()), context: .process()))
