// SPDX-License-Identifier: Apache-2.0
import CSeccomp
import Glibc

/// The limits `alarmd-sync` puts on itself before it reads anything from a
/// server: what a compromised or confused parser could do with the process
/// is then bounded, and alarmd, which rings, is another process.
///
/// - `no_new_privs`, not dumpable (no core file holds the password; other
///   processes of the user cannot ptrace it);
/// - resource limits: address space, CPU time, open files, file size, no core;
/// - a system call filter (libseccomp): never run a program, trace another
///   process, mount, load modules, make namespaces, use BPF or io_uring,
///   or open a socket other than IPv4 or IPv6 — so not the user's session
///   bus nor alarmd's own control socket (the channel to alarmd is a
///   socketpair it was given).
package enum Sandbox {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The address space the process may map: libcurl, TLS and a reply of
    /// up to 64 MiB parsed, with room; far below what would hurt the machine.
    package static let addressSpace: rlim_t = 1 << 30
    /// CPU seconds over the process's life; it leaves between rounds well
    /// before (``recycleAfterCPUSeconds``) and alarmd starts it again.
    package static let cpuSeconds: rlim_t = 600
    package static let recycleAfterCPUSeconds = 300

    /// System calls that end the process at once: nothing it does needs them.
    static let killed = ["execve", "execveat", "ptrace", "process_vm_readv", "process_vm_writev"]
    /// System calls refused with EPERM.
    static let refused = [
        "mount", "umount2", "pivot_root", "chroot", "setns", "unshare", "bpf", "perf_event_open",
        "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
        "add_key", "request_key", "keyctl", "personality", "userfaultfd", "swapon", "swapoff", "reboot", "acct",
        "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "iopl", "ioperm",
        "io_uring_setup", "io_uring_enter", "io_uring_register", "open_by_handle_at", "name_to_handle_at",
        "mknod", "mknodat", "fanotify_init", "syslog", "quotactl", "move_mount", "open_tree", "fsopen", "fsmount",
    ]

    package static func enter() throws(Failure) {
        guard alarmd_prctl(PR_SET_NO_NEW_PRIVS, 1) == 0 else { throw failure("no_new_privs") }
        guard alarmd_prctl(PR_SET_DUMPABLE, 0) == 0 else { throw failure("PR_SET_DUMPABLE") }
        try limit(RLIMIT_AS, addressSpace, "RLIMIT_AS")
        try limit(RLIMIT_CPU, cpuSeconds, "RLIMIT_CPU")
        try limit(RLIMIT_CORE, 0, "RLIMIT_CORE")
        try limit(RLIMIT_NOFILE, 64, "RLIMIT_NOFILE")
        try limit(RLIMIT_FSIZE, 256 << 20, "RLIMIT_FSIZE")
        try filter()
    }

    /// The CPU seconds this process has used (user and system).
    package static func cpuUsed() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
    }

    private static func limit(_ resource: __rlimit_resource, _ value: rlim_t, _ name: String) throws(Failure) {
        var current = rlimit()
        getrlimit(Int32(resource.rawValue), &current)
        // Never above what the process was given.
        let bounded = min(value, current.rlim_max)
        var wanted = rlimit(rlim_cur: bounded, rlim_max: bounded)
        guard setrlimit(Int32(resource.rawValue), &wanted) == 0 else { throw failure(name) }
    }

    private static func filter() throws(Failure) {
        guard let context = seccomp_init(alarmd_scmp_act_allow()) else { throw Failure(description: "seccomp_init failed") }
        defer { seccomp_release(context) }
        for (names, action) in [(killed, alarmd_scmp_act_kill_process()), (refused, alarmd_scmp_act_errno(UInt16(EPERM)))] {
            for name in names {
                let number = seccomp_syscall_resolve_name(name)
                // A call this kernel's table does not have cannot be made either.
                guard number != __NR_SCMP_ERROR else { continue }
                let result = seccomp_rule_add_array(context, action, number, 0, nil)
                guard result == 0 else { throw Failure(description: "seccomp rule for \(name): \(String(cString: strerror(-result)))") }
            }
        }
        // Sockets of any family but IPv4 and IPv6 (AF_MAX is below 64).
        for family in Int32(0)...64 where family != AF_INET && family != AF_INET6 {
            let result = alarmd_scmp_deny_socket_family(context, UInt16(EAFNOSUPPORT), family, family == 64 ? 1 : 0)
            guard result == 0 else { throw Failure(description: "seccomp rule for socket(\(family)): \(String(cString: strerror(-result)))") }
        }
        let loaded = seccomp_load(context)
        guard loaded == 0 else { throw Failure(description: "seccomp_load: \(String(cString: strerror(-loaded)))") }
    }

    private static func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }
}
