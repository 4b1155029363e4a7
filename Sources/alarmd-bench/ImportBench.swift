// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import Foundation
import Glibc
import SeededRandom

/// `import`: builds an `Export` document of `alarms` alarms (the format of
/// `ExportDocument`), sends it as one `io.alarmd.Import` call and times it from
/// the first byte sent to the reply. Reports exactly what happened when the
/// daemon refuses the message.
///
/// `--fit BYTES` instead uses the largest number of alarms, at most `alarms`,
/// whose framed call is at most BYTES long.
enum ImportBench {
    static func document(_ count: Int, zone: Zone) -> [UInt8] {
        var random = SplitMix64(seed: 11)
        let now = Date()
        let alarms = (0..<count).map { AlarmMix.alarm($0, random: &random, systemZone: zone, avoid: nil, created: now) }
        let document = ExportDocument.json(alarms: alarms, reminders: [], zone: zone)
        return VarlinkFramer.frame(VarlinkCall(method: "io.alarmd.Import", parameters: ["document": document]).json)
    }

    static func run(_ options: Options) throws {
        let socket = try options.required("socket")
        var count = try options.int("alarms", default: 100_000)
        let repeats = max(1, try options.int("repeat", default: 1))
        let zone = ZoneDatabase.systemZone(environmentTZ: ProcessInfo.processInfo.environment["TZ"])
        var request: [UInt8]
        if let fitText = options.string("fit"), let fit = Int(fitText) {
            // Estimate the size of one alarm, then walk down to a count that fits.
            let sample = document(1000, zone: zone).count
            let overhead = document(0, zone: zone).count
            let perAlarm = Double(sample - overhead) / 1000
            count = min(count, Int(Double(fit - overhead) / perAlarm))
            request = document(count, zone: zone)
            while request.count > fit && count > 0 {
                count -= max(1, count / 200)
                request = document(count, zone: zone)
            }
        } else {
            request = document(count, zone: zone)
        }

        var runs: [[String: Any]] = []
        var seconds: [Double] = []
        for _ in 0..<repeats {
            let client = try RawClient(path: socket)
            var run: [String: Any] = ["alarms": count, "bytes": request.count]
            let start = Clocks.monotonicNanoseconds()
            var sendFailure: String?
            do { try client.send(request) } catch {
                sendFailure = "\(error)"
                if case .send(_, let sent) = error { run["sent_bytes"] = sent }
            }
            if let sendFailure { run["send_failure"] = sendFailure } else { run["sent_bytes"] = request.count }
            do {
                let reply = try client.receive()
                let elapsed = Double(Clocks.monotonicNanoseconds() - start) / 1e9
                run["seconds"] = elapsed
                run["reply"] = String(reply.text.prefix(600))
                run["outcome"] = reply.isVarlinkError ? "error" : "ok"
                if !reply.isVarlinkError && sendFailure == nil { seconds.append(elapsed) }
            } catch {
                run["seconds"] = Double(Clocks.monotonicNanoseconds() - start) / 1e9
                run["outcome"] = "no reply"
                run["receive_failure"] = "\(error)"
            }
            runs.append(run)
        }
        var result: [String: Any] = ["alarms": count, "bytes": request.count, "runs": runs]
        if !seconds.isEmpty { result["seconds"] = Summary(seconds).json(unit: "s") }
        try emit(result)
    }
}
