// libFuzzer's entry points for every fuzz target.
//
// Not part of the Swift package: scripts/fuzz compiles this file with the
// targets (Tests/PresenterHostTests/Support/Fuzz, one file each, listed in
// FuzzTarget) and every file of the host's folders (Sources/Host*) into one fuzzer
// executable, with -sanitize=fuzzer,address and -D PRESENTER_FUZZ. See the
// header of scripts/fuzz.
//
// Environment:
//   PRESENTER_FUZZ_TARGET=<name>  the target (FuzzTarget's raw values);
//   PRESENTER_FUZZ_ORACLES=1      also check the targets' oracles;
//   PRESENTER_FUZZ_SEEDS=<dir>    write the target's generated seeds into
//                                 <dir> and exit.

import Foundation

private func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

private let target: FuzzTarget = {
    let name = environment("PRESENTER_FUZZ_TARGET") ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        // (FileHandle, not fputs: Glibc's `stderr` is a mutable global, refused in Swift 6 mode.)
        FileHandle.standardError.write(
            Data("presenter-fuzz: PRESENTER_FUZZ_TARGET is '\(name)'; set it to one of \(names)\n".utf8))
        exit(2)
    }
    return target
}()

private let oracles = environment("PRESENTER_FUZZ_ORACLES") == "1"

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    if let directory = environment("PRESENTER_FUZZ_SEEDS") {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var written = 0
        for (name, bytes) in target.seeds
        where FileManager.default.createFile(atPath: directory + "/seed-" + name, contents: Data(bytes)) {
            written += 1
        }
        print("wrote \(written) seeds to \(directory)")
        exit(0)
    }
    _ = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    target.run(Array(UnsafeBufferPointer(start: data, count: size)), oracles: oracles)
    return 0
}
