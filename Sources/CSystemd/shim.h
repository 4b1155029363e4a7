/* SPDX-License-Identifier: Apache-2.0 */
#ifndef ALARMD_CSYSTEMD_SHIM_H
#define ALARMD_CSYSTEMD_SHIM_H

#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-bus.h>
#include <sys/inotify.h>
#include <sys/uio.h>
#include <time.h>

/* SD_LISTEN_FDS_START is a macro; Swift sees it only through a function. */
static inline int alarmd_listen_fds_start(void) { return SD_LISTEN_FDS_START; }

#endif
