// SPDX-License-Identifier: Apache-2.0
/// A form that cannot be sent: every field that is wrong.
public struct FormInvalid: Error, Equatable, Sendable {
    public let errors: [FieldError]

    public init(_ errors: [FieldError]) { self.errors = errors }
}
