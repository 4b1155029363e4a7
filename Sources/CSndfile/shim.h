/* SPDX-License-Identifier: Apache-2.0 */
/* libsndfile decodes the sound files alarmd plays (Ogg Vorbis, FLAC, WAV). */
#include <sndfile.h>
