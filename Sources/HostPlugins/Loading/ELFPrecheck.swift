import Glibc
import HostSystem

/// Checks a candidate file before `dlopen` sees it.
///
/// glibc's `dlopen` maps a library's segments as the program headers say and
/// dies with SIGBUS when one lies past the end of a truncated file; for a file
/// of another architecture it reports a misleading "No such file". So the host
/// reads the ELF header and program headers itself and refuses, with a reason,
/// anything that is not a complete ELF shared object for this machine.
enum ELFPrecheck {
    /// Throws the reason `path` cannot be a plugin for this host, or returns.
    /// (Loading opens and checks a file through `PluginFile`.)
    static func check(_ path: String) throws(PluginLoadFailure) {
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        } catch {
            throw .opening(path, error: error.code)
        }
        try fd.closeAfter { fd throws(PluginLoadFailure) in
            let info: stat
            do throws(Errno) {
                info = try fd.status()
            } catch {
                throw .file(.unreadable(errnoText(error.code)))
            }
            try checkType(info)
            try check(fd, info: info)
        }
    }

    /// Throws unless `info` is that of a regular file.
    static func checkType(_ info: stat) throws(PluginLoadFailure) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw .directory
        case S_IFIFO: throw .notRegularFile(kind: "a FIFO")
        case S_IFSOCK: throw .notRegularFile(kind: "a socket")
        default: throw .notRegularFile(kind: "a device")
        }
    }

    /// Throws the reason the regular file open at `fd` (whose status is
    /// `info`) cannot be a plugin for this host, or returns its program
    /// headers, checked.
    @discardableResult
    static func check(_ fd: FileDescriptor, info: stat) throws(PluginLoadFailure) -> ProgramHeaders {
        let size = UInt64(info.st_size)
        if size == 0 { throw .empty }

        let header = try read(fd, offset: 0, count: Layout.headerSize)
        try checkHeader(header, fileSize: size)
        let fields = Header(header)
        let tableSize = UInt64(fields.programHeaderCount) * UInt64(Layout.programHeaderSize)
        let table = try read(fd, offset: fields.programHeaderOffset, count: Int(tableSize))
        let headers = ProgramHeaders(table: table, bigEndian: fields.bigEndian)
        try checkSegments(headers, fileSize: size)
        if try isExecutable(fd, headers) {
            throw .notSharedObject(kind: "an executable")
        }
        return headers
    }

    /// A checked file's program header table: every segment lies inside the file.
    struct ProgramHeaders {
        /// `count` entries of ``ELFPrecheck/Layout/programHeaderSize`` bytes.
        let table: [UInt8]
        let bigEndian: Bool
        var count: Int { table.count / Layout.programHeaderSize }

        /// `p_type` of entry `index`.
        func type(_ index: Int) -> UInt64 { field(index, at: 0, size: 4) }
        /// `p_offset`: where the segment's bytes start in the file.
        func offset(_ index: Int) -> UInt64 { field(index, at: 8, size: 8) }
        /// `p_filesz`: how many of its bytes are in the file.
        func fileSize(_ index: Int) -> UInt64 { field(index, at: 32, size: 8) }
        /// `p_align`.
        func alignment(_ index: Int) -> UInt64 { field(index, at: 48, size: 8) }

        private func field(_ index: Int, at offset: Int, size: Int) -> UInt64 {
            ELFPrecheck.integer(table, at: index * Layout.programHeaderSize + offset, size: size, bigEndian: bigEndian)
        }
    }

    // MARK: - Header

    /// ELF64 offsets and sizes (from the System V ABI).
    enum Layout {
        static let headerSize = 64
        static let programHeaderSize = 56
        static let classOffset = 4, dataOffset = 5
        static let typeOffset = 16, machineOffset = 18
        static let programHeaderOffset = 32, programHeaderEntrySize = 54, programHeaderCount = 56
        static let class64: UInt8 = 2, class32: UInt8 = 1
        static let littleEndian: UInt8 = 1
        static let sharedObject: UInt16 = 3
    }

    /// The fields the checks need, decoded in the file's byte order.
    private struct Header {
        let bigEndian: Bool
        let elfClass: UInt8
        let machine: UInt16
        let type: UInt16
        let programHeaderOffset: UInt64
        let programHeaderEntrySize: UInt16
        let programHeaderCount: UInt16

        /// `bytes` holds at least the first 20 bytes; later fields read as 0 when absent.
        init(_ bytes: [UInt8]) {
            bigEndian = bytes[Layout.dataOffset] != Layout.littleEndian
            elfClass = bytes[Layout.classOffset]
            machine = UInt16(integer(bytes, at: Layout.machineOffset, size: 2, bigEndian: bigEndian))
            type = UInt16(integer(bytes, at: Layout.typeOffset, size: 2, bigEndian: bigEndian))
            programHeaderOffset = integer(bytes, at: Layout.programHeaderOffset, size: 8, bigEndian: bigEndian)
            programHeaderEntrySize = UInt16(
                integer(bytes, at: Layout.programHeaderEntrySize, size: 2, bigEndian: bigEndian))
            programHeaderCount = UInt16(integer(bytes, at: Layout.programHeaderCount, size: 2, bigEndian: bigEndian))
        }
    }

    /// This executable's class, byte order and machine: plugins must match it.
    /// Read from `/proc/self/exe`, so it is right on any architecture; nil
    /// (no architecture checks, dlopen still refuses) if that cannot be read.
    private static let host: Header? = {
        guard let fd = try? FileDescriptor.open("/proc/self/exe", O_RDONLY),
            let bytes = fd.closeAfter({ try? $0.read(count: Layout.headerSize, at: 0) }),
            bytes.count == Layout.headerSize
        else { return nil }
        return Header(bytes)
    }()

    private static func checkHeader(_ bytes: [UInt8], fileSize: UInt64) throws(PluginLoadFailure) {
        guard bytes.starts(with: [0x7f, 0x45, 0x4c, 0x46]) else {
            throw .notELF(looksLikeText: bytes.allSatisfy { $0 >= 0x20 || $0 == 0x09 || $0 == 0x0a || $0 == 0x0d })
        }
        guard bytes.count >= Layout.machineOffset + 2 else {
            throw .truncated(
                "truncated: the file ends inside its ELF header (\(fileSize) bytes)")
        }
        let file = Header(bytes)
        if let host {
            if file.elfClass != host.elfClass {
                throw .wrongClass(
                    "built for \(bits(file.elfClass)) \(machineName(file.machine)), this host is \(bits(host.elfClass)) \(machineName(host.machine))"
                )
            }
            // Byte order first: read in the wrong order, the machine field is noise.
            if file.bigEndian != host.bigEndian {
                throw .wrongByteOrder(
                    plugin: file.bigEndian ? "big-endian" : "little-endian",
                    host: host.bigEndian ? "big-endian" : "little-endian")
            }
            if file.machine != host.machine {
                throw .wrongMachine(plugin: machineName(file.machine), host: machineName(host.machine))
            }
        }
        guard file.elfClass == Layout.class64 else {
            throw .wrongClass(
                "built for \(bits(file.elfClass)) code, this host loads 64-bit code only")
        }
        guard bytes.count == Layout.headerSize else {
            throw .truncated(
                "truncated: the ELF header needs \(Layout.headerSize) bytes, the file has \(fileSize)"
            )
        }
        guard file.type == Layout.sharedObject else {
            throw .notSharedObject(kind: typeName(file.type))
        }
        guard file.programHeaderEntrySize == Layout.programHeaderSize, file.programHeaderCount > 0 else {
            throw .malformed(
                "malformed ELF file: \(file.programHeaderCount) program headers of \(file.programHeaderEntrySize) bytes (expected \(Layout.programHeaderSize))"
            )
        }
        let (end, overflow) = file.programHeaderOffset.addingReportingOverflow(
            UInt64(file.programHeaderCount) * UInt64(Layout.programHeaderSize))
        if overflow || end > fileSize {
            throw .truncated(
                "truncated: the program headers end at byte \(overflow ? "past 2^64" : String(end)) but the file has \(fileSize) bytes"
            )
        }
    }

    // MARK: - Segments

    /// Every segment's bytes in the file (`p_offset`, `p_filesz`) must lie
    /// inside it: that is what dlopen maps and touches.
    private static func checkSegments(_ headers: ProgramHeaders, fileSize: UInt64) throws(PluginLoadFailure) {
        for index in 0..<headers.count {
            let fileBytes = headers.fileSize(index)
            guard fileBytes > 0 else { continue }
            let (end, overflow) = headers.offset(index).addingReportingOverflow(fileBytes)
            if overflow || end > fileSize {
                throw .truncated(
                    "truncated: segment \(index) ends at byte \(overflow ? "past 2^64" : String(end)) but the file has \(fileSize) bytes"
                )
            }
        }
    }

    /// A position-independent executable is ELF type "shared object" too, and
    /// glibc refuses it with a confusing message ("cannot dynamically load
    /// position-independent executable"). It has a program interpreter
    /// (`PT_INTERP`) or says so in its dynamic section (`DF_1_PIE`).
    private static func isExecutable(_ fd: FileDescriptor, _ headers: ProgramHeaders) throws(PluginLoadFailure) -> Bool
    {
        let interpreter: UInt64 = 3, dynamic: UInt64 = 2
        let flags1: UInt64 = 0x6fff_fffb, pie: UInt64 = 0x0800_0000, entrySize = 16
        let bigEndian = headers.bigEndian
        for index in 0..<headers.count {
            let type = headers.type(index)
            if type == interpreter { return true }
            guard type == dynamic else { continue }
            // Segments were checked to lie inside the file; cap the read all the same.
            let size = min(headers.fileSize(index), 1 << 20)
            let entries = try read(fd, offset: headers.offset(index), count: Int(size))
            for entry in stride(from: 0, to: entries.count - entrySize + 1, by: entrySize) {
                let tag = integer(entries, at: entry, size: 8, bigEndian: bigEndian)
                if tag == 0 { break }
                if tag == flags1 && integer(entries, at: entry + 8, size: 8, bigEndian: bigEndian) & pie != 0 {
                    return true
                }
            }
        }
        return false
    }

    // MARK: - Helpers

    /// Reads up to `count` bytes at `offset`; fewer only at the end of the file.
    static func read(_ fd: FileDescriptor, offset: UInt64, count: Int) throws(PluginLoadFailure) -> [UInt8] {
        do throws(Errno) {
            return try fd.read(count: count, at: offset)
        } catch {
            throw .file(.unreadable(errnoText(error.code)))
        }
    }

    /// An unsigned integer of `size` bytes at `offset`, or 0 past the end of
    /// `bytes` (`SwiftToolchain` reads the section headers with it too).
    static func integer(_ bytes: [UInt8], at offset: Int, size: Int, bigEndian: Bool) -> UInt64 {
        guard offset >= 0, size <= 8, offset + size <= bytes.count else { return 0 }
        // Byte by byte, no array made: it runs for every field of every
        // section and program header (reversing a slice into an array had
        // made it half of a scan helper's instructions per file).
        var value: UInt64 = 0
        for index in 0..<size {
            value = value << 8 | UInt64(bytes[bigEndian ? offset + index : offset + size - 1 - index])
        }
        return value
    }

    private static func bits(_ elfClass: UInt8) -> String {
        switch elfClass {
        case Layout.class64: return "64-bit"
        case Layout.class32: return "32-bit"
        default: return "unknown-class (\(elfClass))"
        }
    }

    /// Names of the `e_machine` values a user is likely to meet.
    private static func machineName(_ machine: UInt16) -> String {
        switch machine {
        case 2: return "SPARC"
        case 3: return "x86"
        case 8: return "MIPS"
        case 20: return "PowerPC"
        case 21: return "PowerPC64"
        case 22: return "IBM S/390"
        case 40: return "ARM"
        case 43: return "SPARC V9"
        case 50: return "IA-64"
        case 62: return "x86-64"
        case 183: return "AArch64"
        case 243: return "RISC-V"
        case 258: return "LoongArch"
        default: return "machine type \(machine)"
        }
    }

    private static func typeName(_ type: UInt16) -> String {
        switch type {
        case 1: return "an object file (.o)"
        case 2: return "an executable"
        case 4: return "a core dump"
        default: return "an ELF file of type \(type)"
        }
    }
}
