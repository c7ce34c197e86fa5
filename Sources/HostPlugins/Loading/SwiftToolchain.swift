import Glibc
import HostSystem
import HostText

/// Which Swift toolchain built a plugin, and the check that a Swift plugin
/// was built by the toolchain of the Swift runtime this process runs on.
///
/// A process has one Swift runtime. A Swift plugin's `DT_NEEDED`
/// `libswiftCore.so` (an unversioned soname) binds to the one already
/// loaded, whatever toolchain built the plugin, and Swift promises no
/// stable ABI on Linux: code from another toolchain may call entry points
/// this runtime lacks (dlopen fails with an undefined symbol) or expect
/// other metadata layouts (it crashes, or runs wrong). So such a plugin is
/// refused before `dlopen`, with a reason.
///
/// What tells toolchains apart in a file (read with readelf on real
/// builds): every file swiftc links holds the toolchain's `swiftrt.o`,
/// built by the toolchain's own clang, whose `.comment` line names that
/// clang and the toolchain's LLVM commit (`clang version 21.0.0
/// (https://github.com/swiftlang/llvm-project.git 11673e66...)`); the
/// runtime's `libswiftCore.so`, built by the same clang, carries the same
/// line. There is no version note, and neither the soname nor symbol
/// versions differ between toolchains. A plugin whose `.comment` was
/// stripped (`strip -R .comment`, dh_strip) cannot be told apart and is
/// loaded as before: its crash is the scan helper's or the presenter
/// process's, never the host's.
enum SwiftToolchain {
    /// The library every Swift program and library needs.
    static let runtimeLibrary = "libswiftCore.so"

    /// What a file's section headers say.
    struct Marks: Equatable {
        /// It needs `libswiftCore.so`: it is Swift code.
        var needsSwiftRuntime: Bool
        /// The compiler lines of its `.comment` that name a clang.
        var compilers: [String]
    }

    /// The compiler lines of the Swift runtime this process runs on: the
    /// `libswiftCore.so` it loaded, or, where the runtime is linked into
    /// the executable (presenter-host, which checks the files it reads
    /// descriptions from, for presenter-host-plugins of the same build),
    /// the executable's own; nil when it cannot be read (then nothing is
    /// refused).
    static let runtimeCompilers: [String]? = {
        guard let path = DynamicLibrary.loadedFile(defining: "swift_retain") ?? PathName.readExecutableLink(),
            let fd = try? FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        else { return nil }
        return fd.closeAfter { fd in
            guard let info = try? fd.status(), let marks = marks(fd, fileSize: UInt64(info.st_size)),
                !marks.compilers.isEmpty
            else { return nil }
            return marks.compilers
        }
    }()

    /// The runtime's Swift version, `6.3` (the standard library's own
    /// version: major and minor).
    static var runtimeVersion: String {
        let version = _SwiftStdlibVersion.current.description
        return version.hasSuffix(".0") ? String(version.dropLast(2)) : version
    }

    /// Throws when the file open at `fd` needs the Swift runtime and its
    /// `.comment` names compilers of which none built this process's runtime.
    static func check(_ fd: FileDescriptor, info: stat) throws(PluginLoadFailure) {
        // The file's marks first: a C plugin never needs the runtime's.
        guard let marks = marks(fd, fileSize: UInt64(info.st_size)), marks.needsSwiftRuntime,
            let first = marks.compilers.first, let runtime = runtimeCompilers,
            !marks.compilers.contains(where: runtime.contains)
        else { return }
        throw .otherSwiftToolchain(plugin: brief(first), runtime: brief(runtime[0]), swift: runtimeVersion)
    }

    // MARK: - Reading the sections

    /// The most section headers read, and the most bytes of one section:
    /// the file is untrusted, its numbers are bounds to check, not sizes
    /// to allocate.
    private static let maxSections = 4096
    private static let maxSectionBytes: UInt64 = 1 << 20
    private static let sectionHeaderSize = 64
    private static let dynamicType: UInt64 = 6, neededTag: UInt64 = 1, entrySize = 16

    /// The marks of the ELF64 file open at `fd`, or nil when it has no
    /// section headers that can be read (an `sstrip`ped file).
    static func marks(_ fd: FileDescriptor, fileSize: UInt64) -> Marks? {
        guard let header = read(fd, offset: 0, count: 64, fileSize: fileSize), header.count == 64 else { return nil }
        let bigEndian = header[5] != 1
        func integer(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> UInt64 {
            ELFPrecheck.integer(bytes, at: offset, size: size, bigEndian: bigEndian)
        }
        let tableOffset = integer(header, 40, 8)
        let entrySizeField = Int(integer(header, 58, 2))
        let count = Int(integer(header, 60, 2)), namesIndex = Int(integer(header, 62, 2))
        guard tableOffset != 0, entrySizeField == sectionHeaderSize, count > 0, count <= maxSections,
            namesIndex < count,
            let table = read(fd, offset: tableOffset, count: count * sectionHeaderSize, fileSize: fileSize)
        else { return nil }

        struct Section { let name: UInt64, type: UInt64, offset: UInt64, size: UInt64, link: Int }
        let sections = (0..<count).map { index -> Section in
            let base = index * sectionHeaderSize
            return Section(
                name: integer(table, base, 4), type: integer(table, base + 4, 4),
                offset: integer(table, base + 24, 8), size: integer(table, base + 32, 8),
                link: Int(truncatingIfNeeded: integer(table, base + 40, 4)))
        }
        func contents(_ section: Section) -> [UInt8] {
            guard section.size <= maxSectionBytes else { return [] }
            return read(fd, offset: section.offset, count: Int(section.size), fileSize: fileSize) ?? []
        }
        let names = contents(sections[namesIndex])

        // Each needed library's name is read alone, never the whole string
        // table: libswiftCore.so's is 580 kB, which reading cost a run's start
        // more than anything else the check does.
        let wanted = Array(runtimeLibrary.utf8) + [0]
        func namesRuntime(_ strings: Section, at offset: UInt64) -> Bool {
            let (start, overflow) = strings.offset.addingReportingOverflow(offset)
            guard offset < strings.size, !overflow else { return false }
            let count = Int(min(UInt64(wanted.count), strings.size - offset))
            return read(fd, offset: start, count: count, fileSize: fileSize) == wanted
        }
        var marks = Marks(needsSwiftRuntime: false, compilers: [])
        for section in sections {
            if section.type == dynamicType, section.link > 0, section.link < count {
                let entries = contents(section)
                for entry in stride(from: 0, to: entries.count - entrySize + 1, by: entrySize) {
                    let tag = integer(entries, entry, 8)
                    if tag == 0 { break }
                    if tag == neededTag, !marks.needsSwiftRuntime,
                        namesRuntime(sections[section.link], at: integer(entries, entry + 8, 8))
                    {
                        marks.needsSwiftRuntime = true
                    }
                }
            } else if isName(names, at: section.name, equalTo: comment) {
                marks.compilers = contents(section).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                    .filter(namesClang)
            }
        }
        return marks
    }

    /// `count` bytes at `offset`, or nil when they are not all in the file.
    private static func read(_ fd: FileDescriptor, offset: UInt64, count: Int, fileSize: UInt64) -> [UInt8]? {
        let (end, overflow) = offset.addingReportingOverflow(UInt64(count))
        guard !overflow, end <= fileSize, let bytes = try? fd.read(count: count, at: offset), bytes.count == count
        else { return nil }
        return bytes
    }

    /// `.comment` and its NUL: the section whose name is these bytes.
    private static let comment = Array(".comment".utf8) + [0]

    /// True when the string at `offset` of a string table is `wanted`
    /// (NUL-terminated), compared as bytes: every section's name of every
    /// plugin passes here, and making each a String cost more than reading it.
    /// The table's end ends its last string, as a NUL would.
    static func isName(_ table: [UInt8], at offset: UInt64, equalTo wanted: [UInt8]) -> Bool {
        guard offset < UInt64(table.count) else { return false }
        let start = Int(offset), end = min(table.count, start + wanted.count)
        // All of `wanted`, or all but its NUL where the table ends.
        return end - start >= wanted.count - 1 && table[start..<end].elementsEqual(wanted[..<(end - start)])
    }

    /// Whether a `.comment` line names a compiler ("clang version"). On
    /// ASCII without a CR (CR LF is the one cluster of two ASCII scalars),
    /// every Character is one byte, so a search of the bytes finds what the
    /// search of Characters does, at a fraction of its cost; anything else
    /// is searched as Characters.
    static func namesClang(_ line: String) -> Bool {
        let words = "clang version"
        guard line.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return line.contains(words) }
        let pattern = Array(words.utf8), bytes = Array(line.utf8)
        guard bytes.count >= pattern.count else { return false }
        return (0...(bytes.count - pattern.count)).contains { bytes[$0..<$0 + pattern.count].elementsEqual(pattern) }
    }

    /// A compiler line made short and safe for one line of a terminal:
    /// `clang version 21.0.0 of llvm-project 11673e6660b2` (the file is
    /// untrusted: anything else is escaped and cut).
    static func brief(_ line: String) -> String {
        let words = line.split(separator: " ")
        if let hash = words.last?.dropLast(line.hasSuffix(")") ? 1 : 0),
            hash.count >= 12, hash.allSatisfy(\.isHexDigit),
            let open = line.firstIndex(of: "(")
        {
            let compiler = line[..<open].trimmingSuffix(" ")
            return PrintableText.escaping(String(compiler.prefix(60)) + " of llvm-project " + hash.prefix(12))
        }
        return PrintableText.escaping(String(line.prefix(80)))
    }
}

extension Substring {
    /// Without the trailing `character`s.
    fileprivate func trimmingSuffix(_ character: Character) -> Substring {
        var text = self
        while text.last == character { text = text.dropLast() }
        return text
    }
}
