// SPDX-License-Identifier: Apache-2.0
import Glibc

exit(WakeHelper.main(arguments: Array(CommandLine.arguments.dropFirst())))
