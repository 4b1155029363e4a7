/* SPDX-License-Identifier: Apache-2.0 */
/* The sound stack of alarmd's sound process (alarmd-sound): libpulse
   (which PipeWire desktops serve too, through pipewire-pulse) plays the
   streams, libsndfile decodes the files. The process links neither; their
   headers give the types, and dlopen(3) the functions, as pointers in these
   two tables. */
#ifndef ALARMD_CSOUNDLIBRARIES_H
#define ALARMD_CSOUNDLIBRARIES_H

#include <pulse/pulseaudio.h>
#include <sndfile.h>

/* Every libpulse function the sound process calls: a field each, of the function's own type. */
#define ALARMD_PULSE_FUNCTIONS(X) \
    X(pa_context_connect) X(pa_context_disconnect) X(pa_context_errno) X(pa_context_get_server_info) \
    X(pa_context_get_sink_info_by_name) X(pa_context_get_state) X(pa_context_new_with_proplist) \
    X(pa_context_set_sink_input_volume) X(pa_context_unref) X(pa_cvolume_max) X(pa_cvolume_set) \
    X(pa_operation_cancel) X(pa_operation_get_state) X(pa_operation_unref) X(pa_proplist_free) \
    X(pa_proplist_new) X(pa_proplist_sets) X(pa_stream_begin_write) X(pa_stream_connect_playback) \
    X(pa_stream_disconnect) X(pa_stream_get_context) X(pa_stream_get_index) X(pa_stream_get_state) \
    X(pa_stream_new_with_proplist) X(pa_stream_set_state_callback) X(pa_stream_set_write_callback) \
    X(pa_stream_unref) X(pa_stream_write) X(pa_strerror) X(pa_threaded_mainloop_free) \
    X(pa_threaded_mainloop_get_api) X(pa_threaded_mainloop_lock) X(pa_threaded_mainloop_new) \
    X(pa_threaded_mainloop_start) X(pa_threaded_mainloop_stop) X(pa_threaded_mainloop_unlock) X(pa_usec_to_bytes)

/* Every libsndfile function it calls. */
#define ALARMD_SNDFILE_FUNCTIONS(X) X(sf_open) X(sf_close) X(sf_readf_float) X(sf_strerror)

#define ALARMD_FIELD(name) __typeof__(name) *name;
struct alarmd_pulse { ALARMD_PULSE_FUNCTIONS(ALARMD_FIELD) };
struct alarmd_sndfile { ALARMD_SNDFILE_FUNCTIONS(ALARMD_FIELD) };
#undef ALARMD_FIELD

/* Opens libpulse.so.0 and libsndfile.so.1 and fills both tables. 0 on
   success; -1 with nothing open, `error` holding dlerror(3)'s words (the
   library or the symbol missing), at most `size` bytes with the NUL. */
int alarmd_sound_open(struct alarmd_pulse *pulse, struct alarmd_sndfile *sndfile, char *error, unsigned long size);

/* Lets go of both libraries; the tables must not be used after. */
void alarmd_sound_close(void);

/* prctl(2) is variadic, which Swift cannot call: the sound process gains no
   privileges through any program it might run. */
#include <sys/prctl.h>
static inline int alarmd_sound_no_new_privs(void) { return prctl(PR_SET_NO_NEW_PRIVS, 1UL, 0UL, 0UL, 0UL); }

#endif
