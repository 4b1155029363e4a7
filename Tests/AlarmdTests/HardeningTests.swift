// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import Testing

/// The service unit sets `MemoryDenyWriteExecute=yes` on the grounds that
/// alarmd runs with it. Without systemd here, the kernel's own form of that
/// rule (`prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN)`, Linux 6.3+, which a
/// process keeps across exec) stands in: alarmd starts under it, takes
/// requests, rings an item and stops cleanly.
@Suite(.enabled(if: MDWE.unavailableReason == nil, "\(MDWE.unavailableReason ?? "")"))
struct HardeningTests {
    /// Sets the rule, proves it holds (a writable and executable mapping is
    /// refused), then becomes the program named in its arguments.
    static let wrapper = #"""
    import ctypes, mmap, os, sys
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(65, 1, 0, 0, 0) != 0:
        sys.exit("PR_SET_MDWE: errno %d" % ctypes.get_errno())
    try:
        mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
        sys.exit("a W+X mapping was allowed: MDWE is not in force")
    except PermissionError:
        pass
    os.execv(sys.argv[1], sys.argv[1:])
    """#

    @Test func alarmdRunsWithMemoryDenyWriteExecute() throws {
        let daemon = DaemonProcess()
        let wrapper = daemon.directory.path + "/mdwe.py"
        try Self.wrapper.write(toFile: wrapper, atomically: true, encoding: .utf8)
        daemon.process.arguments = [wrapper, daemon.process.executableURL!.path] + (daemon.process.arguments ?? [])
        daemon.process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        try daemon.startAndWaitReady()
        let id = try DesktopDaemon.remind("Under MDWE", in: 1, daemon)
        #expect(try DesktopDaemon.waitRinging(id, daemon), "stderr: \(daemon.standardError)")
        try Alarmctl.ok(["dismiss", id], daemon)
        #expect(try Alarmctl.json(["status"], daemon)["ringing"] as? [String] == [])
        #expect(daemon.stop() == 0, "stderr: \(daemon.standardError)")
    }
}

/// Whether this kernel can refuse W+X memory to a process (`PR_SET_MDWE`).
enum MDWE {
    static let unavailableReason: String? = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        probe.arguments = ["-c", "import ctypes, sys; sys.exit(0 if ctypes.CDLL(None).prctl(65, 1, 0, 0, 0) == 0 else 1)"]
        guard (try? probe.run()) != nil else { return "python3 is missing" }
        probe.waitUntilExit()
        return probe.terminationStatus == 0 ? nil : "the kernel has no PR_SET_MDWE (Linux 6.3 or later)"
    }()

}
