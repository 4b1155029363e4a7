// SPDX-License-Identifier: Apache-2.0
import AlarmProtocol
import AlarmTestSupport
import Testing

/// The Swift types against the interface definition: every method's
/// parameters and reply and every struct type, member by member (name,
/// optionality, type), in both directions.
@Suite struct InterfaceTypesTests {
    static let definition = VarlinkDefinition(InterfaceDefinition.text)

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
        #expect(Set(swift.keys) == Set(Self.definition.structTypes.keys))
        for (name, type) in swift {
            #expect(Self.members(type) == Self.definition.types[name], "type \(name)")
        }
    }

    @Test func phaseValuesMatchTheDefinition() {
        #expect(InterfaceDefinition.text.contains("type Phase (\(Wire.Phase.values.joined(separator: ", ")))"))
    }

    /// The parser itself reads what it should, so an empty match cannot pass.
    @Test func theDefinitionIsReadWhole() {
        #expect(Self.definition.methods.count == 27)
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
