/* SPDX-License-Identifier: Apache-2.0 */
/* The PulseAudio client library (libpulse), which PipeWire desktops serve
   too through pipewire-pulse: alarmd plays its sounds as a stream of its own. */
#include <pulse/pulseaudio.h>
