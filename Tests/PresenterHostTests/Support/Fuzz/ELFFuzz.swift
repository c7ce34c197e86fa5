// The fuzz target for the ELF pre-check (`scripts/fuzz --target elf`):
// the input is a candidate plugin file's bytes, written to a scratch file
// that ELFPrecheck.check reads as it reads any candidate. A file it accepts
// must be what dlopen is then given: a complete 64-bit ELF shared object
// (checked on every input). SwiftToolchain.marks reads the section headers
// of every input too: it may find libswiftCore.so needed only where the
// bytes hold that name.

import Foundation
#if !PRESENTER_FUZZ
    @testable import HostSystem
    @testable import HostPlugins
#endif

enum ELFFuzz {
    /// One scratch file per process, rewritten for each input. Unlinked at
    /// once (nothing is left behind) and opened through /proc/self/fd.
    private static let scratch: (fd: Int32, path: String) = {
        var template = Array((NSTemporaryDirectory() + "/presenter-fuzz-elf-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { fatalError("ELFFuzz: mkstemp: \(String(cString: strerror(errno)))") }
        unlink(template)
        return (fd, "/proc/self/fd/\(fd)")
    }()

    private static let lock = NSLock()

    static func run(_ input: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        let (fd, path) = scratch
        guard ftruncate(fd, 0) == 0,
            input.withUnsafeBytes({ pwrite(fd, $0.baseAddress, $0.count, 0) }) == input.count
        else {
            fatalError("ELFFuzz: cannot write \(path): \(String(cString: strerror(errno)))")
        }
        if let marks = SwiftToolchain.marks(FileDescriptor(rawValue: fd), fileSize: UInt64(input.count)),
            marks.needsSwiftRuntime, !contains(input, Array("libswiftCore.so\0".utf8))
        {
            fuzzFailure("SwiftToolchain found libswiftCore.so needed in \(input.count) bytes that do not name it")
        }
        do throws(PluginLoadFailure) {
            try ELFPrecheck.check(path)
        } catch {
            _ = String(describing: error)
            return
        }
        // A file that passes is read for its description, as every candidate is.
        do throws(PluginLoadFailure) {
            let descriptor = FileDescriptor(rawValue: fd)
            var info = stat()
            guard fstat(fd, &info) == 0 else { fatalError("ELFFuzz: fstat \(path)") }
            let headers = try ELFPrecheck.check(descriptor, info: info)
            _ = try PluginDescription.read(descriptor, headers: headers, path: path)
        } catch {
            fuzzCheckOneLine(error.description, "a refused description")
        }
        // Accepted: a 64-bit ELF shared object with its whole header.
        guard input.count >= 64, input.starts(with: [0x7F, 0x45, 0x4C, 0x46]), input[4] == 2 else {
            fuzzFailure("ELFPrecheck accepted \(input.count) bytes that are no 64-bit ELF file")
        }
    }
    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}

// MARK: - Seeds

extension ELFFuzz {
    /// This machine's e_machine, so that seeds get past the architecture checks.
    private static var hostMachine: UInt16 {
        guard let data = FileManager.default.contents(atPath: "/proc/self/exe"), data.count >= 20 else { return 62 }
        return UInt16(data[18]) | UInt16(data[19]) << 8
    }

    private static func le(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// A little-endian ELF64 file of `type` whose program headers are
    /// `segments` (type, offset, file size), followed by `tail`.
    private static func elf(
        type: UInt16 = 3, machine: UInt16? = nil, segments: [(UInt32, UInt64, UInt64)],
        tail: [UInt8] = []
    ) -> [UInt8] {
        var header: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0] + [UInt8](repeating: 0, count: 8)
        header += le(UInt64(type), 2) + le(UInt64(machine ?? hostMachine), 2) + le(1, 4)
        header += le(0, 8) + le(64, 8) + le(0, 8)  // entry, phoff, shoff
        header += le(0, 4) + le(64, 2) + le(56, 2)  // flags, ehsize, phentsize
        header += le(UInt64(segments.count), 2) + le(64, 2) + le(0, 2) + le(0, 2)
        var table: [UInt8] = []
        for (kind, offset, size) in segments {
            table += le(UInt64(kind), 4) + le(4, 4) + le(offset, 8) + le(offset, 8) + le(offset, 8)
            table += le(size, 8) + le(size, 8) + le(4096, 8)
        }
        return header + table + tail
    }

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        let dynamicAt = UInt64(64 + 2 * 56)
        let dynamic = le(0x6fff_fffb, 8) + le(0, 8) + le(0, 8) + le(0, 8)  // DT_FLAGS_1 0, DT_NULL
        let pieDynamic = le(0x6fff_fffb, 8) + le(0x0800_0000, 8) + le(0, 8) + le(0, 8)
        let library = elf(segments: [(1, 0, dynamicAt + 32), (2, dynamicAt, 32)], tail: dynamic)
        return [
            ("library", library),
            ("pie", elf(segments: [(1, 0, dynamicAt + 32), (2, dynamicAt, 32)], tail: pieDynamic)),
            ("interpreter", elf(segments: [(1, 0, 64 + 56), (3, 0, 1)])),
            ("executable", elf(type: 2, segments: [(1, 0, 120)])),
            ("truncated-segment", elf(segments: [(1, 0, 1 << 20)])),
            ("truncated-header", Array(library.prefix(40))),
            ("other-machine", elf(machine: 183, segments: [(1, 0, 120)])),
            ("elf32", [0x7F, 0x45, 0x4C, 0x46, 1, 1, 1] + [UInt8](repeating: 0, count: 45)),
            ("big-endian", [0x7F, 0x45, 0x4C, 0x46, 2, 2, 1] + [UInt8](repeating: 0, count: 57)),
            ("text", Array("#!/bin/sh\necho not a library\n".utf8)),
            ("swift-library", swiftLibrary()),
            ("described", described()),
        ]
    }

    /// A library with a description: a PT_NOTE segment of two notes.
    private static func described() -> [UInt8] {
        let notes = DescriptionFuzz.presenter(0, "first") + DescriptionFuzz.presenter(1, "second")
        let notesAt = UInt64(64 + 2 * 56)
        return elf(
            segments: [(1, 0, notesAt + UInt64(notes.count)), (4, notesAt, UInt64(notes.count))], tail: notes)
    }

    /// A library whose sections say it needs libswiftCore.so and name a
    /// clang in `.comment`, as a Swift plugin's do.
    private static func swiftLibrary() -> [UInt8] {
        let dynamicAt = UInt64(64 + 2 * 56)
        let dynamic = le(1, 8) + le(1, 8) + le(0, 8) + le(0, 8)  // DT_NEEDED "libswiftCore.so", DT_NULL
        let strings = Array("\0libswiftCore.so\0".utf8)
        let comment = Array(
            "clang version 21.0.0 (https://github.com/swiftlang/llvm-project.git 0123456789abcdef)\0".utf8)
        let names = Array("\0.dynamic\0.dynstr\0.comment\0.shstrtab\0".utf8)
        let stringsAt = dynamicAt + UInt64(dynamic.count), commentAt = stringsAt + UInt64(strings.count)
        let namesAt = commentAt + UInt64(comment.count), tableAt = namesAt + UInt64(names.count)
        func section(name: UInt64, type: UInt64, at offset: UInt64, size: Int, link: UInt64 = 0) -> [UInt8] {
            le(name, 4) + le(type, 4) + le(0, 8) + le(0, 8) + le(offset, 8) + le(UInt64(size), 8) + le(link, 4)
                + le(0, 4) + le(8, 8) + le(0, 8)
        }
        let table =
            [UInt8](repeating: 0, count: 64) + section(name: 1, type: 6, at: dynamicAt, size: dynamic.count, link: 2)
            + section(name: 10, type: 3, at: stringsAt, size: strings.count)
            + section(name: 18, type: 1, at: commentAt, size: comment.count)
            + section(name: 27, type: 3, at: namesAt, size: names.count)
        var bytes = elf(
            segments: [(1, 0, dynamicAt + UInt64(dynamic.count)), (2, dynamicAt, UInt64(dynamic.count))],
            tail: dynamic + strings + comment + names + table)
        bytes.replaceSubrange(40..<48, with: le(tableAt, 8))  // e_shoff
        bytes.replaceSubrange(60..<64, with: le(5, 2) + le(4, 2))  // e_shnum, e_shstrndx
        return bytes
    }
}
