/* SPDX-License-Identifier: Apache-2.0 */
#ifndef ALARMD_CADWAITA_SHIM_H
#define ALARMD_CADWAITA_SHIM_H

#include <adwaita.h>
#include <glib-unix.h>

/* gtk_accessible_update_property and _relation are variadic, and the casts
   GTK writes as macros (GTK_ACCESSIBLE, G_OBJECT) are invisible to Swift:
   the few the app needs, as functions. */
static inline void alarms_accessible_set_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/* g_application_run wants argv as char **; Swift's CommandLine hands it over. */
static inline int alarms_application_run(AdwApplication *app, int argc, char **argv) {
    return g_application_run(G_APPLICATION(app), argc, argv);
}

static inline GType alarms_string_type(void) { return G_TYPE_STRING; }

/* gdk_content_provider_new_typed is variadic. */
static inline GdkContentProvider *alarms_content_provider_for_string(const char *text) {
    return gdk_content_provider_new_typed(G_TYPE_STRING, text);
}

#endif
