// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmLocale

/// The app's language: gettext's `alarmd` catalog for the messages and
/// LC_TIME's forms for times (24-hour or 12-hour as the locale says). One for
/// the process, as gettext's own state is; read on GTK's thread only.
let appLanguage = GettextLocalization()

/// The translation of `message`.
func L(_ message: String) -> String { appLanguage.L(message) }

/// The translation of `message` with its placeholders filled in.
func Lf(_ message: String, _ arguments: any CustomStringConvertible...) -> String { appLanguage.Lf(message, arguments: arguments) }
