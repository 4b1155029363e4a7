import AlarmCore
import AlarmProtocol

/// Turns the daemon's errors into one sentence for stderr.
enum DaemonErrorText {
    /// The error's own `message` when it has one (the daemon words those to name
    /// the field and the value); otherwise a sentence built from its parameters.
    /// `subject` is what a missing id was supposed to be: "alarm", "reminder", …
    static func message(for error: VarlinkError, subject: String) -> String {
        let parameters = error.parameters
        let id = parameters["id"]?.stringValue.map(ValidationError.quoted) ?? "?"
        switch error.name {
        case "io.alarmd.NoSuchItem":
            return "no \(subject) with id \(id)"
        case "io.alarmd.AmbiguousId":
            let matches = parameters["matches"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return "id \(id) matches several items: \(matches.joined(separator: ", ")); give more characters"
        case "io.alarmd.InvalidParameter":
            let name = parameters["parameter"]?.stringValue ?? "a parameter"
            guard let message = parameters["message"]?.stringValue, !message.isEmpty else { return "\(name) is not valid" }
            // The daemon's messages start with the parameter's name; keep it visible if one does not.
            return message.hasPrefix(name) ? message : "\(name): \(message)"
        case _ where parameters["message"]?.stringValue?.isEmpty == false:
            return parameters["message"]!.stringValue!
        case "io.alarmd.NotRinging":
            return "nothing is ringing"
        case "io.alarmd.SnoozeNotAllowed":
            return "\(subject) \(id) may not be snoozed now"
        case "io.alarmd.StoreFailure":
            return "alarmd could not save the change; nothing was changed"
        case "org.varlink.service.MethodNotFound", "org.varlink.service.InterfaceNotFound":
            return "this alarmd does not offer \(error.description); is it older than alarmctl?"
        case "org.varlink.service.PermissionDenied":
            return "alarmd refused the request: permission denied"
        default:
            return error.description
        }
    }
}
