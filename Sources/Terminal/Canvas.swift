// SPDX-License-Identifier: Apache-2.0

/// How a stretch of text looks; ``TerminalScreen`` turns each into the
/// terminal's attributes and colours (attributes alone under `NO_COLOR`).
public enum Style: Equatable, Sendable, CaseIterable {
    case plain, bold, dim, selected, accent, warning, error, ringing, tab, activeTab
}

/// One stretch of text in one style.
public struct Span: Equatable, Sendable {
    public var text: String
    public var style: Style

    public init(_ text: String, _ style: Style = .plain) {
        self.text = text
        self.style = style
    }
}

/// One screen line, left to right, never wider than the screen: ``Canvas``
/// cuts what does not fit.
public struct Line: Equatable, Sendable {
    public var spans: [Span] = []
    /// The style of the columns after the last span (a selected row is
    /// highlighted to the edge).
    public var fill: Style = .plain

    public init(_ spans: [Span] = [], fill: Style = .plain) {
        self.spans = spans
        self.fill = fill
    }

    public init(_ text: String, _ style: Style = .plain) {
        self.init([Span(text, style)])
    }

    public mutating func append(_ text: String, _ style: Style = .plain) {
        spans.append(Span(text, style))
    }

    /// The columns the spans take.
    public var columns: Int { spans.reduce(0) { $0 + TextWidth.columns($1.text) } }

    /// The plain text, as a screen shows it.
    public var text: String { spans.map(\.text).joined() }

    /// The line cut to `width` columns.
    public func fitted(to width: Int) -> Line {
        var result = Line(fill: fill)
        var left = width
        for span in spans where left > 0 {
            let text = TextWidth.columns(span.text) <= left ? span.text : TextWidth.fit(span.text, left)
            result.spans.append(Span(text, span.style))
            left -= TextWidth.columns(text)
        }
        return result
    }
}

/// A whole screen: `height` lines of at most `width` columns. What the
/// interface draws is computed as one of these, with no terminal, so its
/// layout is tested as a value; ``TerminalScreen/draw(_:)`` shows it.
public struct Canvas: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var lines: [Line]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        lines = Array(repeating: Line(), count: self.height)
    }

    /// Sets line `row` (ignored outside the screen), cut to the width.
    public mutating func set(_ row: Int, _ line: Line) {
        guard lines.indices.contains(row) else { return }
        lines[row] = line.fitted(to: width)
    }

    /// The screen as text, one string per line, trailing spaces dropped.
    public var text: [String] {
        lines.map { line in
            var text = line.text
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
    }
}
