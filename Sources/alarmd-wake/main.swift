import AlarmDaemon
import Foundation

exit(WakeHelper.main(arguments: Array(CommandLine.arguments.dropFirst())))
