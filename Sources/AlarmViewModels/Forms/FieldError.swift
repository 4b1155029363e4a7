// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// What is wrong with one field, in the reader's language, naming the value.
public struct FieldError: Error, Equatable, Sendable {
    public let field: FormField
    public let message: String

    public init(field: FormField, message: String) {
        self.field = field
        self.message = message
    }

    /// A core validation failure shown under `field`: `Label must not be
    /// empty, got ""` with the field's own name and the requirement in the
    /// reader's language where the catalog has it.
    public init(_ field: FormField, _ error: ValidationError, in l: some Localization) {
        self.init(field: field, message: Self.message(named: field.name(in: l), error, in: l))
    }

    /// A core validation failure worded with a field's name as the reader
    /// sees it: `Until must be …, got "someday"`.
    public static func message(named name: String, _ error: ValidationError, in l: some Localization) -> String {
        l.Lf("%1$s %2$s, got %3$s", name, DaemonRefusal.requirement(error.requirement, in: l), error.value)
    }
}

extension FieldError {
    /// A daemon's `InvalidParameter` under `field`, worded with the field's
    /// name: `Label must be at most 256 characters, got 300 characters`.
    static func refused(_ field: FormField, _ refusal: DaemonRefusal, in l: some Localization) -> FieldError {
        guard let parts = refusal.requirementAndValue else { return FieldError(field: field, message: refusal.message) }
        return FieldError(field: field, message: l.Lf("%1$s %2$s, got %3$s", field.name(in: l), DaemonRefusal.requirement(parts.requirement, in: l),
                                                      parts.value))
    }
}
