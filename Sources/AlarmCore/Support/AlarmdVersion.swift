// SPDX-License-Identifier: Apache-2.0
/// The version that `alarmd --version`, `alarmctl --version` and `Status`
/// report: one number for the package, whichever program says it.
public enum AlarmdVersion {
    public static let string = "0.1.0"
}
