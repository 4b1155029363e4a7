import AlarmDaemon
import Foundation

exit(Daemon.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
