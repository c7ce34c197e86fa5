import Glibc
import HostPlugins
import HostSandbox
import HostSystem
import Synchronization

/// The presenter process: `presenter-host-plugins --presenter-process HOSTPID`,
/// started by ``PresenterProcess``, never by a user (the flag is not in
/// `--help`).
///
/// It serves the presenter protocol on descriptor 3 with a
/// ``LocalPresenterEngine`` whose hooks run on this process's main thread,
/// one request at a time, and exits when the host closes the channel or
/// dies (its parent-death signal, set first thing, is SIGKILL). Before it
/// reads a request it enters the sandbox (``PluginConfinement``), for ever:
/// it then loads only the sealed copies of plugin files the host passes it,
/// and says in its hello which layers hold. Its address space is capped at
/// ``memoryLimit``, so a plugin that allocates without end fails here
/// instead of taking the machine's memory from the command.
package enum PresenterProcessServer {
    /// The hidden command-line flag that runs it.
    package static let flag = "--presenter-process"
    /// The descriptor the channel to the host is on.
    static let channel = FileDescriptor(rawValue: 3)
    /// The descriptor the sandbox writes what stopped the process on
    /// (``ConfinementViolation``), for the host to read when it ended.
    static let violations = FileDescriptor(rawValue: 4)
    /// The most address space the presenter process may use: 2 GiB.
    static let memoryLimit: rlim_t = 2 << 30

    /// Serves the host until it closes the channel, then exits without
    /// running exit handlers or plugin destructors. `environment` is this
    /// process's, as its command line read it (what its sandbox let
    /// through): its sandbox's inputs, and whether its engine traces.
    package static func run(_ arguments: [String], environment: [String: String]) -> Never {
        // Dies with the host; if the host is already gone, the parent is not
        // it (in a PID namespace of its own the parent has no number here:
        // 0; the channel's end then tells).
        ProcessEnd.withParent(signal: SIGKILL)
        if let host = arguments.first.flatMap({ pid_t($0) }), ProcessSelf.parentID != host, ProcessSelf.parentID != 0 {
            ProcessEnd.immediately(0)
        }
        // Named as what it is part of for ps and top (its file is
        // presenter-host-plugins, or /proc/self/exe when that started it).
        ProcessSelf.rename("presenter-host")
        // The channel is ours alone: a process a plugin starts must not hold
        // it (the host would then miss this process's end).
        try? PresenterProcessServer.channel.setClosedOnExec()
        try? PresenterProcessServer.violations.setClosedOnExec()
        // (Not in a build of scripts/sanitize: a sanitizer's runtime
        // reserves terabytes of address space for its shadow memory, and
        // under the cap no presenter process could even start.)
        #if !PRESENTER_SANITIZER
            ResourceLimit.capAddressSpace(at: memoryLimit)
        #endif
        let sandbox = PluginConfinement.enter(violations: violations, environment: environment)
        let server = Server(tracing: EngineNote.tracingEnabled(environment))
        server.send(PresenterMessage.encode(.hello(version: PresenterMessage.version, sandbox: sandbox.encoded)))
        server.serve()
        ProcessEnd.immediately(0)
    }
}

/// The state of the presenter process: its engine, the plugins it loaded,
/// and the channel's unread bytes. Main thread only.
private final class Server: PresenterEngineDelegate {
    private var engine: LocalPresenterEngine?
    private let clock = PinnedClock()
    /// What each file loaded holds, by the path the host named it by.
    private var files: [String: PluginLibrary.Loaded] = [:]
    /// The presenters the host asked for, by handle: the handle is the index.
    private var presenters: [LoadedPresenter] = []
    private var incoming = FrameBuffer()
    /// The plugin images passed with requests not read yet, oldest first.
    private var passed: [FileDescriptor] = []
    private let mainThread = ThreadIdentity.current
    /// Whether the engine traces every hook call (`PRESENTER_HOST_DEBUG`).
    private let tracing: Bool

    init(tracing: Bool) {
        self.tracing = tracing
    }

    /// Reads requests and answers each, until the host closes the channel.
    func serve() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            do throws(MessageError) {
                while let body = try incoming.next() {
                    let (request, sequence, time) = try PresenterMessage.decodeRequest(body)
                    clock.pinned = time
                    let result = handle(request)
                    clock.pinned = 0
                    send(
                        PresenterMessage.encode(
                            PresenterMessage.Reply(
                                sequence: sequence, result: result, frameRequests: engine?.frameRequests ?? [:])))
                }
            } catch {
                ProcessEnd.immediately(70)  // the host is ours: a bad request means a bug, not an attack
            }
            guard let count = try? PresenterProcessServer.channel.receive(into: &chunk, descriptors: &passed), count > 0
            else { return }
            chunk.withUnsafeBytes { incoming.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }

    private func handle(_ request: PresenterMessage.Request) -> PresenterMessage.Result {
        if case let .configure(options, geometry) = request {
            let engine = LocalPresenterEngine(
                options: options, clock: clock, geometry: geometry, tracing: tracing, loader: nil,
                isEngineThread: { [mainThread] in mainThread.isCurrent })
            engine.delegate = self
            self.engine = engine
            return .done
        }
        guard let engine else { ProcessEnd.immediately(70) }
        switch request {
        case .configure:
            return .done
        case .load(let files):
            return load(files)
        case let .attach(view, chain, elements):
            // The host names only handles it was answered (a bug otherwise).
            guard chain.allSatisfy({ $0 < presenters.count }) else { ProcessEnd.immediately(70) }
            do throws(PresenterFailure) {
                try engine.attach(view, loaded: chain.map { presenters[Int($0)] }, elements: elements)
                return .done
            } catch {
                guard case let .createFailed(status, message) = error.reason else { ProcessEnd.immediately(70) }
                return .createFailed(presenterId: error.presenterId, status: status, message: message)
            }
        case let .show(view, message, interactor):
            return .outcome(engine.show(view, message: message, interactor: interactor))
        case let .hide(view, message, interactor, failure):
            return .outcome(engine.hide(view, message: message, interactor: interactor, failure: failure))
        case let .progress(view, interactor):
            return .outcome(engine.progress(view, interactor: interactor))
        case let .render(view, now, final):
            return .drawing(engine.render(view, at: now, final: final))
        case let .key(view, code):
            return .keyUsed(engine.key(view, code: code))
        case .geometry(let geometry):
            engine.setGeometry(geometry)
            return .done
        case .detach(let view):
            engine.detach(view)
            return .done
        }
    }

    /// Loads the files not loaded yet, from the images passed with the
    /// request (one a new file, in order), and answers a handle for each
    /// presenter asked for: its descriptor, found by index, whose id must
    /// be the one resolution found there.
    private func load(_ request: [PresenterMessage.FileLoad]) -> PresenterMessage.Result {
        let new = request.map(\.path).filter { files[$0] == nil }
        guard passed.count >= new.count else { ProcessEnd.immediately(70) }
        let images = passed.prefix(new.count)
        passed.removeFirst(new.count)
        for (path, image) in zip(new, images) {
            do throws(PluginLoadFailure) {
                files[path] = try PluginLibrary.load(try PluginFile(image: image, path: path))
            } catch {
                return .refused(.file(path: path, error))
            }
        }
        var handles: [PresenterMessage.Handle] = []
        for file in request {
            let contents = files[file.path] ?? []
            for wanted in file.presenters {
                let index = Int(wanted.index)
                guard contents.indices.contains(index), let presenter = try? contents[index].get(),
                    presenter.plugin.id == wanted.id
                else { return .refused(.presenter(path: file.path, id: wanted.id)) }
                handles.append(PresenterMessage.Handle(presenters.count))
                presenters.append(presenter)
            }
        }
        return .loaded(handles: handles)
    }

    // MARK: - PresenterEngineDelegate

    func engine(view: ViewID, element: String, operation: Int32) {
        send(PresenterMessage.encode(.element(view: view, name: element, operation: operation)))
    }

    func engine(log entry: PresenterLogEntry) {
        send(PresenterMessage.encode(.log(entry)))
    }

    /// Writes one message; a host that stopped reading is gone: exit.
    func send(_ body: [UInt8]) {
        do throws(Errno) {
            try PresenterProcessServer.channel.send(MessageCoding.frame(body))
        } catch {
            ProcessEnd.immediately(0)
        }
    }
}

/// The clock of `now_ns` in the presenter process: the system's monotonic
/// clock (the host's too), or, while a request pins it, the host's time
/// (a test's manual clock).
private final class PinnedClock: HostClock {
    /// The host's time for the request in progress, 0 for none. Main thread
    /// only (the thread that runs every hook and host service of the
    /// process); atomic, as a clock is shared (`Sendable`), at no cost there.
    var pinned: UInt64 {
        get { pinnedTime.load(ordering: .relaxed) }
        set {
            assert(DetachedThread.isMainThread, "PinnedClock is the server's main thread's")
            pinnedTime.store(newValue, ordering: .relaxed)
        }
    }
    private let pinnedTime = Atomic<UInt64>(0)
    private let monotonic = MonotonicClock()

    func now() -> UInt64 {
        assert(DetachedThread.isMainThread, "now_ns is answered on the server's main thread only")
        let pinned = self.pinned
        return pinned != 0 ? pinned : monotonic.now()
    }
    var movesOnItsOwn: Bool { true }
}
