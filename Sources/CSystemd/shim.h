/* SPDX-License-Identifier: Apache-2.0 */
/* sd-journal, to read the journal back after a crash (JournalReader): the
   one part of libsystemd alarmd uses, and seldom. alarmd links no libsystemd
   (it writes the journal, notifies the service manager and speaks D-Bus by
   the protocols); this opens it with dlopen(3) when the journal is to be
   read, and the header gives the functions' types. */
#ifndef ALARMD_CSYSTEMD_SHIM_H
#define ALARMD_CSYSTEMD_SHIM_H

#include <dlfcn.h>
#include <stddef.h>
#include <systemd/sd-journal.h>

/* Every sd-journal function JournalReader calls: a field each, of the function's own type. */
#define ALARMD_JOURNAL_FUNCTIONS(X) \
    X(sd_journal_open) X(sd_journal_close) X(sd_journal_add_match) X(sd_journal_flush_matches) \
    X(sd_journal_seek_tail) X(sd_journal_seek_realtime_usec) X(sd_journal_previous) X(sd_journal_next) \
    X(sd_journal_get_data) X(sd_journal_wait)

#define ALARMD_FIELD(name) __typeof__(name) *name;
struct alarmd_journal { ALARMD_JOURNAL_FUNCTIONS(ALARMD_FIELD) };
#undef ALARMD_FIELD

/* Opens libsystemd.so.0 and fills `table`; the handle to dlclose(3) when
   done, or NULL with nothing open (dlerror(3) says why). */
static inline void *alarmd_journal_load(struct alarmd_journal *table) {
    void *handle = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!handle) return NULL;
#define ALARMD_LOOK_UP(name) if (!(table->name = (__typeof__(name) *)dlsym(handle, #name))) { dlclose(handle); return NULL; }
    ALARMD_JOURNAL_FUNCTIONS(ALARMD_LOOK_UP)
#undef ALARMD_LOOK_UP
    return handle;
}

static inline const char *alarmd_dlerror(void) { return dlerror(); }

#endif
