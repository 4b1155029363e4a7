// SPDX-License-Identifier: Apache-2.0
// The floor under alarmd's footprint in bench/ (the footprint section): a
// Swift program built with the same flags that does nothing but wait on
// one Dispatch timer and one read source, and imports no Foundation module.
// What alarmd maps and holds above this is its own.
import Dispatch
import Glibc

let timer = DispatchSource.makeTimerSource(queue: .main)
timer.schedule(deadline: .now() + .seconds(3600), repeating: .seconds(3600))
timer.setEventHandler {}
timer.resume()
// Standard input: the bench keeps a pipe open and closes it to stop the floor.
let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
input.setEventHandler {
    var byte: UInt8 = 0
    if read(STDIN_FILENO, &byte, 1) <= 0 { exit(0) }
}
input.resume()
dispatchMain()
