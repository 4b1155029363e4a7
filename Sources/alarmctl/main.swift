// SPDX-License-Identifier: Apache-2.0
import AlarmCLI
import Glibc

exit(AlarmControl.run(Array(CommandLine.arguments.dropFirst()), context: .process()))
