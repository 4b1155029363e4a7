/* SPDX-License-Identifier: Apache-2.0 */
#ifndef ALARMD_CLINUX_SHIM_H
#define ALARMD_CLINUX_SHIM_H

#include <sys/syscall.h>
#include <errno.h>
#include <unistd.h>
#include <signal.h>
/* epoll, for the control socket's event loop: Swift's Glibc module leaves it out. */
#include <sys/epoll.h>
/* malloc_trim, to hand memory back after a very large reply (ControlConnection). */
#include <malloc.h>
/* timerfd: clock changes and resume (ClockWatcher), wake-ups from suspend (WakeTimer). */
#include <sys/timerfd.h>

/* syscall(2) is variadic, which Swift cannot call; pidfd_open has no glibc
   wrapper before 2.36. A pidfd becomes readable when the process exits, so a
   Dispatch read source can wait for a child without SIGCHLD handling. */
static inline int alarmd_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

/* All of `count` bytes to `fd` (standard error, for a person at a
   terminal), through short writes and EINTR; stops at another error. */
static inline void alarmd_write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(fd, bytes, count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        bytes += written;
        count -= (size_t)written;
    }
}

/* prctl(2) is variadic; pthread_setname_np sits behind _GNU_SOURCE. Names
   the calling thread (15 bytes kept) for top -H and stack traces. */
#include <sys/prctl.h>
static inline int alarmd_name_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

/* accept4 sits behind _GNU_SOURCE, which Swift's Glibc module does not
   define. A connection accepted with SOCK_CLOEXEC | SOCK_NONBLOCK is so from
   the start: accept then fcntl left a window in which a child spawned on
   another thread (a hook, a sound player) inherited it. The flags come from
   the caller: including <sys/socket.h> here would claim its declarations for
   this module. */
static inline int alarmd_accept4(int listener, int flags) {
    return (int)syscall(SYS_accept4, listener, (void *)0, (void *)0, flags);
}

/* Signals by the self-pipe trick. sigaction takes effect at once, unlike a
   Dispatch signal source, which is armed later on Dispatch's own thread: a
   SIGTERM sent right after READY=1 was lost in that window. The handler only
   writes the signal's number to a non-blocking descriptor (async-signal-safe);
   the daemon reads it with a Dispatch read source. */
#include <errno.h>
#include <pthread.h>
#include <string.h>

static int alarmd_signal_write_fd = -1;

static void alarmd_signal_handler(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    (void)write(alarmd_signal_write_fd, &byte, 1);
    errno = saved;
}

static inline int alarmd_catch_signal(int number, int write_fd) {
    alarmd_signal_write_fd = write_fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = alarmd_signal_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(number, &action, NULL) != 0) return -1;
    /* A parent may have started us with the signal blocked (a test runner
       does): unblock it on this, the main, thread so the handler can run. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, number);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL) == 0 ? 0 : -1;
}

#endif
