/* SPDX-License-Identifier: Apache-2.0 */
#ifndef ALARMD_CINTL_SHIM_H
#define ALARMD_CINTL_SHIM_H

/* glibc's own gettext (libintl is part of the C library, nothing to link) and
   the locale's date and time conventions. Swift's Glibc module leaves out
   <libintl.h>. */
#include <libintl.h>
#include <langinfo.h>
#include <locale.h>
#include <time.h>

#endif
