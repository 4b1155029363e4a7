// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Testing

/// The lines between alarmd and its sound process: each message reads back
/// as itself, a field cannot break a line, and what is not a message (a
/// library's words on stderr, which shares the socket) reads as nothing.
@Suite struct SoundMessageTests {
    static let messages: [SoundMessage] = [
        .escalate, .playing(seconds: 2.5), .cannotDecode("cannot decode /a b.oga: Format not recognised."),
        .noServer("no sound server: Connection refused"), .failed("the sound server ended the stream: Timeout"),
        .output(nil), .output(.init(name: "Built-in Audio Analog Stereo", muted: true, volume: 35)),
        .file(index: 0, problem: nil), .file(index: 12, problem: "/x holds no sound"),
    ]

    @Test(arguments: messages) func eachMessageReadsBackAsItself(message: SoundMessage) {
        #expect(!message.line.contains("\n"))
        #expect(SoundMessage(line: Substring(message.line)) == message, "\(message.line)")
    }

    @Test func aLineBreakInAFieldIsSentAsASpace() {
        let line = SoundMessage.failed("one\ntwo\r\nthree").line
        #expect(line == "failed one two three")
        #expect(SoundMessage(line: Substring(line)) == .failed("one two three"))
    }

    @Test(arguments: ["", " ", "W: [pulseaudio] core-util.c: Failed to connect", "playing", "playing -1", "playing nan", "playing inf",
                      "decode", "server", "failed", "escalate now", "output 50 2 Speakers", "output x 0 Speakers", "output 50 0",
                      "output 5000 0 Speakers", "file -1 ok", "file 1", "file x ok", "PLAYING 1"])
    func whatIsNotAMessageReadsAsNothing(line: String) {
        #expect(SoundMessage(line: Substring(line)) == nil)
    }
}
