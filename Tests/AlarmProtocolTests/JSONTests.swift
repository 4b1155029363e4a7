// SPDX-License-Identifier: Apache-2.0
import AlarmProtocol
import Testing

/// Parses UTF-8 bytes, failing the test with the parser's reason if it throws.
private func parse(_ bytes: [UInt8]) throws -> JSONValue { try JSONParser.parse(bytes) }
private func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

@Suite struct JSONParserAcceptsTests {
    @Test func scalars() throws {
        #expect(try parse("null") == .null)
        #expect(try parse("true") == .bool(true))
        #expect(try parse("false") == .bool(false))
        #expect(try parse("0") == .number(0))
        #expect(try parse("-0") == .number(0))
        #expect(try parse("42") == .number(42))
        #expect(try parse("-17") == .number(-17))
        #expect(try parse("3.25") == .number(3.25))
        #expect(try parse("\"\"") == .string(""))
        #expect(try parse("  \t\r\n 7 \n") == .number(7))
    }

    @Test(arguments: [
        ("1e3", 1000.0), ("1E3", 1000.0), ("1e+2", 100.0), ("1E-2", 0.01), ("-2.5e-3", -0.0025),
        ("0.5", 0.5), ("0e0", 0.0), ("123456789012", 123_456_789_012.0), ("1.5E10", 1.5e10),
    ])
    func numbersWithExponents(text: String, value: Double) throws {
        #expect(try parse(text) == .number(value))
    }

    @Test func nestingAndEmptyContainers() throws {
        let value = try parse(#"{"a":[1,{"b":[]},{}],"c":{"d":{"e":[[[null]]]}},"f":[]}"#)
        guard case .object(let root) = value else { Issue.record("not an object"); return }
        #expect(root.keys == ["a", "c", "f"])
        #expect(root["a"] == .array([1, .object(["b": .array([])]), .object([:])]))
        #expect(root["c"]?.objectValue?["d"]?.objectValue?["e"] == .array([.array([.array([.null])])]))
        #expect(root["f"] == .array([]))
        #expect(try parse("[]") == .array([]))
        #expect(try parse("{}") == .object([:]))
        #expect(try parse("[ ]") == .array([]))
        #expect(try parse("{ }") == .object([:]))
    }

    @Test func escapes() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
        #expect(try parse(#""\u0041\u00e9\u20AC""#) == .string("Aé€"))
        #expect(try parse(#""\u0000""#) == .string("\u{0}"))
    }

    @Test func surrogatePairEscapes() throws {
        #expect(try parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try parse(#""\uD834\uDD1E""#) == .string("𝄞"))
        #expect(try parse(#""a\uDBFF\uDFFFb""#) == .string("a\u{10FFFF}b"))
    }

    @Test func rawMultibyteUTF8() throws {
        let text = "\"é€😀\u{10FFFF}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\""
        #expect(try parse(Array(text.utf8)) == .string("é€😀\u{10FFFF}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}"))
    }

    @Test func objectKeepsKeyOrder() throws {
        let value = try parse(#"{"zeta":1,"alpha":2,"mid":3,"beta":{"y":1,"x":2}}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["zeta", "alpha", "mid", "beta"])
        #expect(Array(object.map(\.key)) == ["zeta", "alpha", "mid", "beta"])
        #expect(object["beta"]?.objectValue?.keys == ["y", "x"])
        #expect(value.jsonText == #"{"zeta":1,"alpha":2,"mid":3,"beta":{"y":1,"x":2}}"#)
    }

    @Test func jsonObjectEditingKeepsOrder() {
        var object: JSONObject = ["b": 1, "a": 2]
        object["c"] = 3
        object["b"] = 10  // replacing keeps the place
        #expect(object.keys == ["b", "a", "c"])
        object["a"] = nil
        #expect(object.keys == ["b", "c"])
        #expect(JSONValue.object(object).jsonText == #"{"b":10,"c":3}"#)
        // Equality ignores member order, as JSON does.
        #expect(JSONObject(dictionaryLiteral: ("x", 1), ("y", 2)) == JSONObject(dictionaryLiteral: ("y", 2), ("x", 1)))
    }

    @Test(arguments: [
        #"{"a":[1,2,{"b":null}],"c":"d\u0001e","f":true,"g":-1.5e-7}"#,
        #"[[],{},"",0,-0.25,1e300,"\ud83d\ude00 \"q\" \\ /"]"#,
        #"{"nested":{"deeper":{"deepest":[false,null,"x"]}}}"#,
        #""tab\there\nnewline\r\u001f""#,
    ])
    func roundTrips(text: String) throws {
        let value = try parse(text)
        let again = try parse(value.jsonText)
        #expect(again == value)
        // And the output is stable: printing the re-parsed value gives the same text.
        #expect(again.jsonText == value.jsonText)
    }

    @Test func roundTripsBuiltValues() throws {
        let values: [JSONValue] = [
            .object(["id": "x", "list": [1, 2, 3], "nested": .object(["k": .null, "u": "ü\u{7}\u{1F}😀"])]),
            .array([.number(0.1), .number(-123456789), .number(1e-10), .bool(false)]),
            .string("\u{0}\u{1}\u{2028}\u{FEFF}"),
        ]
        for value in values {
            #expect(try parse(value.jsonText) == value)
            #expect(try parse(value.jsonBytes) == value)
        }
    }

    @Test func nestingUpToMaxDepthIsAccepted() throws {
        let depth = JSONParser.maxDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: Never.self) { try parse(text) }
        let objects = String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
        #expect(throws: Never.self) { try parse(objects) }
    }
}

@Suite struct JSONParserRejectsTests {
    @Test(arguments: [
        ("[1,2,]", "trailing comma in array"),
        (#"{"a":1,}"#, "trailing comma in object"),
        ("[,1]", "leading comma"),
        ("[1 2]", "missing comma"),
        ("// c\n1", "line comment"),
        ("/* c */ 1", "block comment"),
        ("[1 /* c */]", "comment inside"),
        (#"{"a":1,"a":2}"#, "duplicate key"),
        (#"{"a":{"x":1},"b":2,"a":3}"#, "duplicate key later"),
        ("01", "leading zero"),
        ("-01", "negative leading zero"),
        ("00", "double zero"),
        ("1.", "no digits after point"),
        (".5", "no digit before point"),
        ("+1", "plus sign"),
        ("-", "lone minus"),
        ("1e", "empty exponent"),
        ("1e+", "empty signed exponent"),
        ("0x10", "hex"),
        ("NaN", "NaN"),
        ("Infinity", "Infinity"),
        ("-Infinity", "-Infinity"),
        ("1e400", "overflowing number"),
        ("[1] x", "trailing garbage"),
        ("{} {}", "two values"),
        ("1 2", "two numbers"),
        ("nul", "truncated literal"),
        ("True", "capitalised literal"),
        ("nullx", "literal with garbage"),
        ("", "empty input"),
        ("   ", "only whitespace"),
        (#"{"a" 1}"#, "missing colon"),
        ("{a:1}", "unquoted key"),
        ("{1:1}", "number key"),
        ("'a'", "single quotes"),
        (#""abc"#, "unterminated string"),
        (#""\x41""#, "invalid escape"),
        (#""\u12""#, "short unicode escape"),
        (#""\u12G4""#, "bad hex digit"),
        (#""\ud83d""#, "lone high surrogate"),
        (#""\ud83dx""#, "high surrogate then text"),
        (#""\ud83d\u0041""#, "high surrogate then non-surrogate"),
        (#""\ude00""#, "lone low surrogate"),
        (#""\ude00\ud83d""#, "surrogates reversed"),
        ("[", "unclosed array"),
        ("{", "unclosed object"),
        (#"{"a":1"#, "unclosed object after member"),
        ("]", "stray bracket"),
        ("\u{FEFF}1", "byte order mark"),
    ])
    func rejects(text: String, why: String) {
        #expect(throws: JSONError.self, "\(why): \(text)") { try parse(text) }
    }

    @Test(arguments: [UInt8(0x00), 0x01, 0x07, 0x0A, 0x0D, 0x09, 0x1F])
    func rejectsBareControlCharactersInStrings(byte: UInt8) {
        let bytes: [UInt8] = [0x22, 0x61, byte, 0x62, 0x22]
        #expect(throws: JSONError.self) { try parse(bytes) }
    }

    @Test(arguments: [
        ([0xC0, 0x80], "overlong NUL"),
        ([0xC1, 0xBF], "overlong 2-byte"),
        ([0xE0, 0x80, 0xAF], "overlong 3-byte '/'"),
        ([0xF0, 0x80, 0x80, 0xAF], "overlong 4-byte"),
        ([0x80], "lone continuation byte"),
        ([0xBF], "lone continuation byte BF"),
        ([0xC3], "truncated 2-byte sequence"),
        ([0xE2, 0x82], "truncated 3-byte sequence"),
        ([0xF0, 0x9F, 0x98], "truncated 4-byte sequence"),
        ([0xC3, 0x41], "continuation replaced by ASCII"),
        ([0xED, 0xA0, 0x80], "UTF-8 encoded high surrogate U+D800"),
        ([0xED, 0xBF, 0xBF], "UTF-8 encoded low surrogate U+DFFF"),
        ([0xF4, 0x90, 0x80, 0x80], "U+110000, above U+10FFFF"),
        ([0xF5, 0x80, 0x80, 0x80], "F5 lead byte"),
        ([0xFF], "FF byte"),
        ([0xFE], "FE byte"),
    ] as [([UInt8], String)])
    func rejectsInvalidUTF8InStrings(sequence: [UInt8], why: String) {
        let bytes: [UInt8] = [0x22, 0x61] + sequence + [0x62, 0x22]
        #expect(throws: JSONError.self, "\(why)") { try parse(bytes) }
        // At the very end of the input too (the truncation must not read past the end).
        #expect(throws: JSONError.self, "\(why) at end") { try parse([0x22] + sequence) }
    }

    @Test func rejectsInvalidUTF8InKeys() {
        let bytes: [UInt8] = Array(#"{""#.utf8) + [0xFF] + Array(#"":1}"#.utf8)
        #expect(throws: JSONError.self) { try parse(bytes) }
    }

    @Test func rejectsNestingDeeperThanTheLimit() {
        let depth = JSONParser.maxDepth + 1
        #expect(throws: JSONError.self) { try parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)) }
        let objects = String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
        #expect(throws: JSONError.self) { try parse(objects) }
    }

    @Test func hostileNestingThrowsInsteadOfCrashing() {
        // Far deeper than any stack would survive if the parser recursed without a bound.
        let open = String(repeating: "[", count: 1_000_000)
        #expect(throws: JSONError.self) { try parse(open) }
        #expect(throws: JSONError.self) { try parse(open + String(repeating: "]", count: 1_000_000)) }
        #expect(throws: JSONError.self) { try parse(String(repeating: #"{"a":"#, count: 200_000)) }
    }

    @Test func errorsCarryAnOffsetAndReason() throws {
        do {
            _ = try JSONParser.parse("[1,2,]")
            Issue.record("accepted a trailing comma")
        } catch {
            #expect(error.offset == 5)
            #expect(!error.reason.isEmpty)
            #expect(error.description.contains("byte 5"))
        }
        do {
            _ = try JSONParser.parse(#"{"k":1,"k":2}"#)
            Issue.record("accepted a duplicate key")
        } catch {
            #expect(error.reason.contains("duplicate"))
            #expect(error.offset == 7)
        }
    }
}

@Suite struct JSONEncoderTests {
    @Test func escapesControlCharactersAsUnicodeEscapes() {
        #expect(JSONValue.string("a\u{0}b").jsonText == #""a\u0000b""#)
        // Non-ASCII goes out as its UTF-8 bytes; quotes and backslashes escaped among them.
        #expect(JSONValue.string("é\"€\\😀").jsonBytes == Array(#""é\"€\\😀""#.utf8))
        #expect(JSONValue.object(["ключ": .string("значение")]).jsonText == #"{"ключ":"значение"}"#)
        #expect(JSONValue.string("\u{1}\u{7}\u{8}\u{B}\u{C}\u{1B}\u{1F}").jsonText == #""\u0001\u0007\u0008\u000b\u000c\u001b\u001f""#)
        #expect(JSONValue.string("\n\r\t").jsonText == #""\n\r\t""#)
        #expect(JSONValue.string("q\"b\\s/").jsonText == #""q\"b\\s/""#)
        // Non-ASCII and DEL are written as they are, in UTF-8.
        #expect(JSONValue.string("é😀\u{7F}").jsonText == "\"é😀\u{7F}\"")
        #expect(JSONValue.string("é").jsonBytes == [0x22, 0xC3, 0xA9, 0x22])
    }

    @Test func integralNumbersPrintWithoutAFraction() {
        #expect(JSONValue.number(0).jsonText == "0")
        #expect(JSONValue.number(-0.0).jsonText == "0")
        #expect(JSONValue.number(7).jsonText == "7")
        #expect(JSONValue.number(-42).jsonText == "-42")
        #expect(JSONValue.number(1e15).jsonText == "1000000000000000")
        #expect(JSONValue.number(9_007_199_254_740_992).jsonText == "9007199254740992")
        #expect(JSONValue(3600).jsonText == "3600")
        #expect(JSONValue.number(1.5).jsonText == "1.5")
        #expect(JSONValue.number(-0.25).jsonText == "-0.25")
        #expect(!JSONValue.number(100).jsonText.contains("."))
    }

    @Test func compactOutput() {
        let value: JSONValue = .object(["a": [1, 2], "b": .object([:]), "c": .array([]), "d": nil, "e": true])
        #expect(value.jsonText == #"{"a":[1,2],"b":{},"c":[],"d":null,"e":true}"#)
    }

    @Test func accessors() {
        #expect(JSONValue.number(5).intValue == 5)
        #expect(JSONValue.number(5.5).intValue == nil)
        #expect(JSONValue.number(1e300).intValue == nil)
        #expect(JSONValue.string("5").intValue == nil)
        #expect(JSONValue.string("x").stringValue == "x")
        #expect(JSONValue.bool(true).boolValue == true)
        #expect(JSONValue.null.isNull)
        #expect(JSONValue.array([]).typeName == "an array")
        #expect(JSONValue.object([:]).typeName == "an object")
    }
}
