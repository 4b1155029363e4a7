// SPDX-License-Identifier: Apache-2.0
import AlarmTerminal
import Glibc

var environment: [String: String] = [:]
var entry = environ
while let pointer = entry.pointee {
    let pair = String(cString: pointer)
    if let equals = pair.firstIndex(of: "=") { environment[String(pair[..<equals])] = String(pair[pair.index(after: equals)...]) }
    entry += 1
}
exit(TerminalUI.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment))
