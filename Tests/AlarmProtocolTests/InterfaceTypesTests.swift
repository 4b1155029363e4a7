// SPDX-License-Identifier: Apache-2.0
import AlarmProtocol
import Testing

/// The Swift types against the interface definition: every method's
/// parameters and reply and every struct type, member by member (name,
/// optionality, type), in both directions.
@Suite struct InterfaceTypesTests {
    /// `name: type` lists of the definition's methods and types, read from its text.
    struct Definition {
        var methods: [String: (parameters: [String], reply: [String])] = [:]
        var types: [String: [String]] = [:]

        init(_ text: String) {
            // Comments out, then one declaration per `method` / `type` / `error` keyword.
            let code = text.split(separator: "\n").map { $0.prefix { $0 != "#" } }.joined(separator: " ")
            let words = code.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            var rest = Substring(" " + words)
            func next(_ from: Substring) -> Range<Substring.Index>? {
                [" method ", " type ", " error "].compactMap { from.firstRange(of: $0) }.min { $0.lowerBound < $1.lowerBound }
            }
            while let start = next(rest) {
                let keyword = rest[start]
                let end = next(rest[start.upperBound...])?.lowerBound ?? rest.endIndex
                let declaration = rest[start.upperBound..<end]
                rest = rest[end...]
                let method = keyword == " method "
                if keyword == " error " { continue }
                let name = String(declaration.prefix { $0 != " " && $0 != "(" })
                let groups = Self.groups(declaration)
                if method {
                    methods[name] = (groups[0], groups.count > 1 ? groups[1] : [])
                } else if declaration.contains(":") {
                    types[name] = groups[0]
                }
            }
        }

        /// The members of each top-level parenthesised group, as `name: type` without spaces.
        static func groups(_ text: Substring) -> [[String]] {
            var result: [[String]] = []
            var depth = 0
            var current = ""
            for character in text {
                switch character {
                case "(":
                    depth += 1
                    if depth == 1 { current = "" } else { current.append(character) }
                case ")":
                    depth -= 1
                    if depth == 0 {
                        result.append(current.split(separator: ",").map { $0.filter { $0 != " " } }.filter { !$0.isEmpty })
                    } else { current.append(character) }
                default:
                    if depth >= 1 { current.append(character) }
                }
            }
            return result
        }
    }

    static let definition = Definition(InterfaceDefinition.text)

    static func members(_ type: any WireStruct.Type) -> [String] { type.fields.map { $0.description.filter { $0 != " " } } }

    static func methodMembers<M: VarlinkMethod>(_ method: M.Type) -> (name: String, parameters: [String], reply: [String]) {
        (M.name, members(M.Request.self), members(M.Reply.self))
    }

    @Test func everyMethodHasItsTypesAndMatchesTheDefinition() {
        let swift = InterfaceDefinition.methodTypes.map { Self.methodMembers($0) }
        #expect(Set(swift.map(\.name)) == Set(Self.definition.methods.keys))
        #expect(Set(swift.map(\.name)) == Set(InterfaceDefinition.methods))
        for method in swift {
            let declared = Self.definition.methods[method.name]
            #expect(method.parameters == declared?.parameters, "\(method.name) parameters")
            #expect(method.reply == declared?.reply, "\(method.name) reply")
        }
    }

    @Test func everyStructTypeMatchesTheDefinition() {
        let swift: [String: any WireStruct.Type] = [
            "SnoozeSettings": Wire.SnoozeSettings.self, "Alarm": Wire.Alarm.self, "Reminder": Wire.Reminder.self, "AlarmFields": AlarmFields.self,
            "Firing": Wire.Firing.self, "Event": Wire.Event.self, "SoundFile": Wire.SoundFile.self, "Wake": Wire.Wake.self, "SyncState": Wire.SyncState.self,
            "Rule": Wire.Rule.self, "RuleDay": Wire.RuleDay.self, "HistoryEntry": Wire.HistoryEntry.self, "ImportChange": ImportChange.self,
        ]
        #expect(Set(swift.keys) == Set(Self.definition.types.keys))
        for (name, type) in swift {
            #expect(Self.members(type) == Self.definition.types[name], "type \(name)")
        }
    }

    @Test func phaseValuesMatchTheDefinition() {
        #expect(InterfaceDefinition.text.contains("type Phase (\(Wire.Phase.values.joined(separator: ", ")))"))
    }

    /// The parser itself reads what it should, so an empty match cannot pass.
    @Test func theDefinitionIsReadWhole() {
        #expect(Self.definition.methods.count == 26)
        #expect(Self.definition.methods["Snooze"]?.parameters == ["id:?string", "minutes:?int"])
        #expect(Self.definition.methods["RemoveAlarm"]?.reply == ["id:string", "title:string"])
        #expect(Self.definition.types["Event"]?.last == "reminder:?Reminder")
    }

    /// Members the daemon writes are members the type declares.
    @Test func encodersWriteOnlyDeclaredMembers() {
        let sound = Wire.SoundFile(name: "bell", theme: "freedesktop", path: "/x.oga").json.objectValue!
        #expect(sound.keys == Wire.SoundFile.fields.map(\.name))
        var fields = AlarmFields()
        fields.label = "Work"
        fields.enabled = false
        fields.timeZone = .some(nil)
        fields.command = []
        let object = fields.json
        #expect(Set(object.keys).isSubset(of: AlarmFields.fields.map(\.name)))
        #expect(object.keys == ["label", "enabled", "timeZone", "command"])
    }
}
