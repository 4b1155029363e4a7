// SPDX-License-Identifier: Apache-2.0
import AlarmDaemon
import FoundationEssentials
import Glibc

exit(Daemon.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
