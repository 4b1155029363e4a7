// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// An image from a file, scaled to fit: a to-do's thumbnail.
public struct Picture: WidgetWrapper {
    public let widget: Widget

    public init() {
        widget = Widget(gtk_picture_new())
        gtk_picture_set_can_shrink(widget.c(), 1)
    }

    /// Loads the file (GdkPixbuf's loaders, off nothing: the path was checked
    /// by ImageCheck first); `nil` clears it.
    public func setFile(_ path: String?) { gtk_picture_set_filename(widget.c(), path) }
}
