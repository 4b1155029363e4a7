/* SPDX-License-Identifier: Apache-2.0 */
#include "CSoundLibraries.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static void *pulse_handle;
static void *sndfile_handle;

static void say(char *error, unsigned long size, const char *what) {
    if (size > 0) snprintf(error, size, "%s", what ? what : "unknown error");
}

void alarmd_sound_close(void) {
    if (pulse_handle) dlclose(pulse_handle);
    if (sndfile_handle) dlclose(sndfile_handle);
    pulse_handle = NULL;
    sndfile_handle = NULL;
}

int alarmd_sound_open(struct alarmd_pulse *pulse, struct alarmd_sndfile *sndfile, char *error, unsigned long size) {
    alarmd_sound_close();
    /* RTLD_LOCAL: their symbols serve these tables only. */
    pulse_handle = dlopen("libpulse.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!pulse_handle) goto failed;
    sndfile_handle = dlopen("libsndfile.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!sndfile_handle) goto failed;
#define ALARMD_LOOK_UP(handle, table, name) \
    if (!(table->name = (__typeof__(name) *)dlsym(handle, #name))) goto failed;
#define ALARMD_PULSE(name) ALARMD_LOOK_UP(pulse_handle, pulse, name)
#define ALARMD_SNDFILE(name) ALARMD_LOOK_UP(sndfile_handle, sndfile, name)
    ALARMD_PULSE_FUNCTIONS(ALARMD_PULSE)
    ALARMD_SNDFILE_FUNCTIONS(ALARMD_SNDFILE)
    return 0;
failed:
    say(error, size, dlerror());
    alarmd_sound_close();
    memset(pulse, 0, sizeof *pulse);
    memset(sndfile, 0, sizeof *sndfile);
    return -1;
}
