#ifndef ALARMD_CLINUX_SHIM_H
#define ALARMD_CLINUX_SHIM_H

#include <sys/syscall.h>
#include <unistd.h>
#include <signal.h>
/* epoll, for the control socket's event loop: Swift's Glibc module leaves it out. */
#include <sys/epoll.h>

/* syscall(2) is variadic, which Swift cannot call; pidfd_open has no glibc
   wrapper before 2.36. A pidfd becomes readable when the process exits, so a
   Dispatch read source can wait for a child without SIGCHLD handling. */
static inline int alarmd_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

#endif
