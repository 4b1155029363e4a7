/* SPDX-License-Identifier: Apache-2.0 */
#ifndef ALARMD_CSQLITE_SHIM_H
#define ALARMD_CSQLITE_SHIM_H

#include <sqlite3.h>

/* SQLITE_TRANSIENT is a macro that casts -1 to a function pointer, which Swift
   cannot import; expose it as a function so bind calls can ask SQLite to copy. */
static inline sqlite3_destructor_type alarmd_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/* Extended result codes are macros built with | and <<, which Swift does not import. */
static inline int alarmd_sqlite_constraint_primarykey(void) {
    return SQLITE_CONSTRAINT_PRIMARYKEY;
}

/* sqlite3_config is variadic, which Swift cannot call. Memory statistics
   take a global mutex on every allocation; nothing here reads them. Only
   takes effect before SQLite's first use in the process. */
static inline int alarmd_sqlite_stop_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif
