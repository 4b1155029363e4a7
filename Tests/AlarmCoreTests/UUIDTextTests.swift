// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

/// `UUID(canonical:)` reads what `UUID(uuidString:)` reads in the canonical
/// shape, and refuses everything else; Foundation's `sscanf` is laxer (it
/// skips spaces and takes signs inside a field: `…-B5C0F2-A70B1` reads).
@Suite struct UUIDTextTests {
    @Test func agreesWithFoundationOnValidAndBrokenText() {
        var generator = SplitMix64(seed: 5)
        var texts: [String] = []
        for _ in 0..<500 {
            let id = UUID(uuid: withUnsafeBytes(of: (generator.next(), generator.next())) { $0.load(as: uuid_t.self) })
            texts += [id.uuidString, id.uuidString.lowercased()]
            // One character changed, dropped or added somewhere.
            var broken = Array(id.uuidString)
            let index = Int(generator.next() % UInt64(broken.count))
            switch generator.next() % 3 {
            case 0: broken[index] = ["g", "-", "Z", " ", "é"][Int(generator.next() % 5)]
            case 1: broken.remove(at: index)
            default: broken.insert("0", at: index)
            }
            texts.append(String(broken))
        }
        texts += ["", "00000000-0000-0000-0000-000000000000", "00000000000000000000000000000000", "{00000000-0000-0000-0000-000000000000}",
                  "0000000-00000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff", "FfFfFfFf-0000-4000-8000-aBcDeF012345"]
        for text in texts {
            let hex = Set("0123456789abcdefABCDEF")
            let shape = text.count == 36 && text.enumerated().allSatisfy { index, character in
                [8, 13, 18, 23].contains(index) ? character == "-" : hex.contains(character)
            }
            if shape {
                #expect(UUID(canonical: text) != nil && UUID(canonical: text) == UUID(uuidString: text), "\(text)")
            } else {
                #expect(UUID(canonical: text) == nil, "\(text)")
            }
        }
    }

    /// `lowercasedText` is Foundation's text in lower case, and reads back.
    @Test func lowercasedTextIsFoundationsInLowerCase() {
        var generator = SplitMix64(seed: 9)
        var ids = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                   UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))]
        for _ in 0..<2_000 { ids.append(UUID(uuid: withUnsafeBytes(of: (generator.next(), generator.next())) { $0.load(as: uuid_t.self) })) }
        for id in ids {
            #expect(id.lowercasedText == id.uuidString.lowercased())
            #expect(UUID(canonical: id.lowercasedText) == id)
        }
    }

    @Test func byteOrderIsMemcmpOrder() {
        let low = UUID(uuidString: "00000000-0000-0000-0000-0000000000ff")!
        let high = UUID(uuidString: "00000000-0000-0000-0000-000000000100")!
        #expect(low.bytesPrecede(high) && !high.bytesPrecede(low) && !low.bytesPrecede(low))
        #expect(UUID(uuidString: "7fffffff-ffff-ffff-ffff-ffffffffffff")!.bytesPrecede(UUID(uuidString: "80000000-0000-0000-0000-000000000000")!))
    }
}
