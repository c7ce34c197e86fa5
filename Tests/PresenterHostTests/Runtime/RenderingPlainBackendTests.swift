import Foundation
import HostRuntime
import PresenterHost
import Testing
import PresenterHostTesting

@Suite("PlainBackend")
struct RenderingPlainBackendTests {
    @Test(
        "the line for each event",
        arguments: [
            (ProgressEvent.started(action: "a", message: "Saving bookmark..."), true, "Saving bookmark..."),
            (.started(action: "a", message: ""), true, nil),
            (.finished(action: "a", message: "Bookmark saved!", error: nil), true, "✔ Bookmark saved!"),
            (.finished(action: "a", message: "Bookmark saved!", error: nil), false, "[OK] Bookmark saved!"),
            (.finished(action: "a", message: nil, error: nil), true, nil),
            (
                .finished(
                    action: "a", message: "An error occurred",
                    error: InteractorError(domain: "http", message: "timed out")),
                true, "✖ An error occurred: timed out"
            ),
            (
                .finished(action: "a", message: "URL cannot be empty", error: .validation("URL cannot be empty")),
                true, "✖ URL cannot be empty"
            ),
            (
                .finished(
                    action: "a", message: nil, error: InteractorError(domain: "process", message: "exit status 2")),
                false, "[FAILED] exit status 2"
            ),
            (.finished(action: "a", message: nil, error: InteractorError(domain: "x", message: "")), true, "✖ failed"),
            (.finished(action: "a", message: "Two\nlines", error: nil), true, "✔ Two - lines"),
        ] as [(ProgressEvent, Bool, String?)])
    func lines(event: ProgressEvent, unicode: Bool, line: String?) {
        #expect(PlainBackend(fd: FileDescriptor(rawValue: -1), unicode: unicode).line(for: event) == line)
    }

    @Test("plain output never holds an escape code, even from a message")
    func noEscapes() throws {
        let pipe = OutputPipe()
        let backend = PlainBackend(fd: pipe.writeEnd, unicode: true)
        #expect(!backend.flags.contains(.animated))
        backend.event(.started(action: "a", message: "Saving\u{1B}[31m red\u{9B}2J"))
        var canvas = Canvas(cols: 10, rows: 2)
        canvas.drawText("x", col: 0, row: 0, maxColumns: 1, style: CellStyle(rawValue: 0x11))
        backend.present(canvas)
        backend.event(.finished(action: "a", message: "Saved", error: nil))
        backend.printAbove("command output")
        backend.finish()
        let output = String(decoding: pipe.read(), as: UTF8.self)
        #expect(output == "Saving[31m red2J\n✔ Saved\ncommand output\n")
        #expect(!output.utf8.contains(0x1B))
    }

    @Test("a runtime on a plain backend prints the working line, then the result")
    func throughTheRuntime() throws {
        let pipe = OutputPipe()
        let recorder = Recorder(["p": PresenterScript(text: "drawn but not shown", animateEvery: 0)])
        let runtime = recorder.runtime(backend: PlainBackend(fd: pipe.writeEnd, unicode: false))
        let screenlet = try runtime.attach(
            TestView(
                presenter: "p",
                messages: [
                    "add": [.working: "Saving bookmark...", .success: "Bookmark saved!", .failure: "Could not save"]
                ]))
        screenlet.perform(action: "add", interactorType: "T").succeed()
        screenlet.perform(action: "add", interactorType: "T").fail(InteractorError(domain: "http", message: "503"))
        runtime.advance(by: 1)
        runtime.shutdown()
        let output = String(decoding: pipe.read(), as: UTF8.self)
        #expect(
            output == "Saving bookmark...\n[OK] Bookmark saved!\nSaving bookmark...\n[FAILED] Could not save: 503\n")
    }
}
