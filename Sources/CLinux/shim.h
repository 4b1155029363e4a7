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
   another thread (a hook, a sound player) inherited it. */
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

#include <fcntl.h>
/* Descriptors over Unix sockets (SCM_RIGHTS), whose control-message macros
   Swift cannot use: a D-Bus reply carries logind's inhibitor lock this way,
   and a journal entry too long for one datagram goes as a sealed memfd.
   This module then claims <sys/socket.h>'s declarations (SOCK_STREAM,
   sockaddr, send) from Glibc's in the modules that import it: a file of
   theirs that uses them imports CLinux too. */
#include <sys/socket.h>
#include <sys/un.h>

/* Reads at most `size` bytes from `fd` without blocking, and the descriptors
   that came with them (close-on-exec), at most `capacity` into `fds`, their
   number in `*count`; any beyond `capacity` are closed. recvmsg's result. */
static inline ssize_t alarmd_receive(int fd, void *bytes, size_t size, int *fds, int capacity, int *count) {
    union { struct cmsghdr header; char space[CMSG_SPACE(sizeof(int) * 16)]; } control;
    struct iovec vector = { .iov_base = bytes, .iov_len = size };
    struct msghdr message = { .msg_iov = &vector, .msg_iovlen = 1, .msg_control = control.space, .msg_controllen = sizeof control.space };
    *count = 0;
    ssize_t result = recvmsg(fd, &message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    if (result < 0) return result;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t received = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        int *passed = (int *)CMSG_DATA(header);
        for (size_t index = 0; index < received; index++) {
            if (*count < capacity) fds[(*count)++] = passed[index];
            else close(passed[index]);
        }
    }
    return result;
}

/* Sends one descriptor, with no bytes, to the datagram socket at `address`
   (`length` bytes of it). sendmsg's result. */
static inline ssize_t alarmd_send_descriptor(int socket_fd, const struct sockaddr *address, socklen_t length, int fd) {
    union { struct cmsghdr header; char space[CMSG_SPACE(sizeof(int))]; } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = { .msg_name = (void *)address, .msg_namelen = length, .msg_control = control.space, .msg_controllen = sizeof control.space };
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &fd, sizeof(int));
    return sendmsg(socket_fd, &message, MSG_NOSIGNAL);
}

/* memfd_create(2) and its seals sit behind _GNU_SOURCE. A sealed memfd is
   what journald takes an entry in when it is too long for a datagram. */
static inline int alarmd_sealed_memfd(const void *bytes, size_t size) {
    /* MFD_CLOEXEC | MFD_ALLOW_SEALING, and MFD_NOEXEC_SEAL where the kernel
       knows it (6.3 and later warn about a memfd created without it). */
    int fd = (int)syscall(SYS_memfd_create, "journal-entry", 0x0001U | 0x0002U | 0x0008U);
    if (fd < 0 && errno == EINVAL) fd = (int)syscall(SYS_memfd_create, "journal-entry", 0x0001U | 0x0002U);
    if (fd < 0) return -1;
    const char *next = bytes;
    while (size > 0) {
        ssize_t written = write(fd, next, size);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) { close(fd); return -1; }
        next += written;
        size -= (size_t)written;
    }
    /* F_ADD_SEALS: F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE. */
    if (fcntl(fd, 1033, 1 | 2 | 4 | 8) < 0) { close(fd); return -1; }
    return fd;
}

/* Flags Swift's Glibc module leaves out. */
static inline int alarmd_msg_nosignal(void) { return MSG_NOSIGNAL; }
static inline int alarmd_msg_dontwait(void) { return MSG_DONTWAIT; }

#endif
