import FoundationEssentials

/// A to-do item with an optional due instant, kept in a manual order.
public struct Reminder: Identifiable, Hashable, Sendable {
    public let id: UUID
    public var title: String
    public var notes: String
    /// An absolute instant; a reminder does not move with the time zone.
    public var due: Date?
    public var done: Bool
    /// 0-based place in the list; the store keeps positions dense.
    public var position: Int
    /// Absolute path of an image shown with the notification.
    public var imagePath: String?
    /// A command run when the reminder fires (an argument vector); empty for none.
    public var command: [String]
    public var created: Date
    public var updated: Date

    public init(
        id: UUID = UUID(),
        title: String,
        notes: String = "",
        due: Date? = nil,
        done: Bool = false,
        position: Int = 0,
        imagePath: String? = nil,
        command: [String] = [],
        created: Date,
        updated: Date? = nil
    ) {
        self.id = id
        self.title = title
        self.notes = notes
        self.due = due
        self.done = done
        self.position = position
        self.imagePath = imagePath
        self.command = command
        self.created = created
        self.updated = updated ?? created
    }

    public func validate() throws(ValidationError) {
        try TextRules.title.check(title, field: "title")
        try TextRules.notes.check(notes, field: "notes")
        if let imagePath {
            guard imagePath.hasPrefix("/"), imagePath.utf8.count <= 4096,
                  !imagePath.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { throw .text("imagePath", "must be an absolute file path", got: imagePath) }
        }
        try CommandRules.check(command)
        guard position >= 0 else {
            throw ValidationError(field: "position", requirement: "must be 0 or more", value: String(position))
        }
    }
}
