// SPDX-License-Identifier: Apache-2.0
import AlarmViewModels
import Foundation
import Testing

@Suite struct ImageCheckTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "imagecheck-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ bytes: [UInt8]) -> String {
        let path = directory + "/" + name
        precondition(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "cannot write \(path)")
        return path
    }

    @Test func imagesAreKnownByTheirFirstBytes() {
        #expect(ImageCheck.check(path: file("a.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0])) == .success(.png))
        #expect(ImageCheck.check(path: file("a.jpg", [0xFF, 0xD8, 0xFF, 0xE0])) == .success(.jpeg))
        #expect(ImageCheck.check(path: file("a.gif", Array("GIF89a....".utf8))) == .success(.gif))
        #expect(ImageCheck.check(path: file("a.webp", Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8))) == .success(.webp))
        #expect(ImageCheck.check(path: file("a.bmp", Array("BM".utf8) + [1, 2, 3, 4, 0, 0, 0, 0, 54, 0])) == .success(.bmp))
        #expect(ImageCheck.check(path: file("a.svg", Array("\u{FEFF}<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8))) == .success(.svg))
    }

    @Test func whatIsNotAnImageIsRefusedWithAMessage() {
        let text = file("notes.png", Array("just some text, named like a picture".utf8))
        #expect(ImageCheck.check(path: text) == .failure(.notAnImage))
        #expect(ImageCheck.check(path: file("empty.png", [])) == .failure(.notAnImage))
        #expect(ImageCheck.check(path: file("html.svg", Array("<html><body></body></html>".utf8))) == .failure(.notAnImage))
        #expect(ImageCheck.Problem.notAnImage.text(in: Languages.english) == "That is not an image (PNG, JPEG, GIF, WebP, BMP or SVG).")
    }

    @Test func aHugeFileIsRefusedWithoutBeingRead() throws {
        let path = file("huge.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // Sparse: 21 MiB on paper, nothing on disk.
        #expect(truncate(path, 21 << 20) == 0)
        let result = ImageCheck.check(path: path)
        #expect(result == .failure(.tooLarge(bytes: 21 << 20, limit: 20 << 20)))
        if case .failure(let problem) = result {
            #expect(problem.text(in: Languages.english) == "The image is 21 MiB; at most 20 MiB are allowed.")
        }
    }

    @Test func missingDirectoriesAndRelativePathsAreRefused() {
        #expect(ImageCheck.check(path: directory + "/nothing.png") == .failure(.missing))
        #expect(ImageCheck.check(path: directory) == .failure(.notRegularFile))
        #expect(ImageCheck.check(path: "picture.png") == .failure(.notAbsolute))
        #expect(ImageCheck.check(path: "/dev/null") == .failure(.notRegularFile))
    }

    @Test func theReminderFormChecksANewImage() {
        var form = ReminderForm(zone: .utc, language: Languages.english)
        form.title = "Passport photo"
        form.imagePath = file("photo.txt", Array("hello".utf8))
        #expect(form.validate().map(\.field) == [.image])
        form.imagePath = file("photo.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(form.validate().isEmpty)
    }
}
