// SPDX-License-Identifier: Apache-2.0
import AlarmWake
import SystemCalls
import VarlinkCore

/// Refusing a connection the helper does not take, with one error.
enum HelperSocket {
    /// Best effort: one Varlink error to a connection that is not taken, then close it.
    static func refuse(_ fd: Int32, with error: WakeError) {
        StreamSocket.sendAndClose(fd, VarlinkFramer.frame(VarlinkReply.error(error.varlinkError).json))
    }
}
