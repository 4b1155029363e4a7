// SPDX-License-Identifier: Apache-2.0
// JSON and Varlink's framing and messages live in VarlinkCore, which has no
// Foundation in it, so that the alarmd-wake helper can use them without the
// rest of this module. Everything that imports AlarmProtocol sees them as before.
@_exported import VarlinkCore
