import Foundation
import Glibc
import Testing
@testable import HostBookmarks
@testable import HostSystem

/// Every wait ends (issue 37), through the real binary: a reader of
/// `--events` or `--log` that stopped reading never stalls the command,
/// and a signal still ends the run; a FIFO at the bookmark store's path
/// is refused, not waited on; a save waiting for another save's lock ends
/// on the trapped signals, committing nothing; a store over its stated
/// maximum is refused before it is read; links another user could place
/// (the store's lock, `--log` and `--events` in a shared folder) are not
/// followed.
@Suite("every wait ends, and links another user placed are not followed")
struct EveryWaitEndsTests {
    /// A command that reports `count` messages on the progress channel, each
    /// an event line of some 150 bytes: 20,000 are 3 MB, far past the
    /// queue's bound and a pipe's 64 KiB.
    private static func reporter(count: Int = 20000, then end: String) -> String {
        """
        sh -c 'i=0; while [ $i -lt \(count) ]; do i=$((i+1)); echo "{\\"message\\":\\"report $i of a command whose events nobody reads for now\\"}" >&$PRESENTER_PROGRESS_FD; done; \(end)'
        """
    }

    /// The queue (1 MiB) and the host's own memory, with room: a host that
    /// kept every line would hold the 3 MB and more, but the bound is
    /// about not stalling; memory is checked against gross growth only.
    private static let memoryBound = 400 << 20

    @Test func aStalledEventsReaderNeverStallsTheCommandAndTheOutcomeCountsWhatWasDropped() throws {
        // The reader takes nothing until the command has reported everything
        // (`done` is the command's last act), then reads the rest. Before,
        // the command blocked on its progress channel and never got there.
        let run = try BoundedScript(
            """
            mkfifo done
            start=$(date +%s%N)
            { "$HOST" run --events - -- \(Self.reporter(then: "echo > done; exit 3")) 2>host.err; echo $? > status; } \
                | { read -r _ < done; cat > events; }
            echo "ms=$(( ($(date +%s%N) - start) / 1000000 ))"
            echo "status=$(cat status)"
            """)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.values["status"] == "3", "\(run.transcript)")
        #expect((run.seconds("ms") ?? .infinity) < TestTime.scaled(30), "\(run.transcript)")
        #expect(run.peakBytes < Self.memoryBound, "\(run.peakBytes) bytes")
        let events = try String(contentsOfFile: run.folder + "/events", encoding: .utf8)
        let lines = events.split(separator: "\n")
        let last = try #require(
            lines.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(last["event"] as? String == "failure", "\(last)")
        #expect(last["status"] as? Int == 3, "\(last)")
        let dropped = try #require(last["dropped"] as? Int, "\(last)")
        // Every report is either a line or counted as dropped.
        let messages = lines.filter { $0.contains(#""event":"message""#) }.count
        #expect(messages + dropped == 20000, "\(messages) lines, \(dropped) dropped")
        #expect(dropped > 0)
    }

    /// `--events -` on the terminal the region is drawn on: 200,000
    /// messages as fast as a command can report them. Each line was
    /// printed above the region with a redraw of its own, queued on the
    /// presenter thread past the queue's bound: the run ended half a
    /// minute after its command (the soak's seed 326404335, run 134). Now
    /// the lines queued go above the region together, and past the bound
    /// are dropped and counted.
    @Test func eventsAboveTheRegionEndWithTheCommand() throws {
        let count = 200_000
        let reporter =
            "awk 'BEGIN { for (i = 1; i <= \(count); i++) printf \"{\\\"message\\\": \\\"report %d\\\"}\\n\", i }' >&$PRESENTER_PROGRESS_FD; exit 3"
        let run = try MeasuredRun(["run", "--events", "-", "--working", "W", "--", "sh", "-c", reporter])
        let output = String(decoding: run.output, as: UTF8.self)
        #expect(run.status == 3, "\(output.suffix(500))")
        let outcome = try #require(
            output.split(whereSeparator: \.isNewline).last { $0.contains(#""event":"failure""#) },
            "\(output.suffix(500))")
        let fields = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.drop { $0 != "{" }.utf8)) as? [String: Any],
            "\(outcome)")
        let duration = try #require(fields["duration"] as? Double, "\(fields)")
        // The command's own time is the host's to take; what follows it is not.
        #expect(run.seconds - duration < TestTime.scaled(10), "\(run.seconds) s in all, the command \(duration) s")
        let messages = output.components(separatedBy: #""event":"message""#).count - 1
        #expect(messages + (fields["dropped"] as? Int ?? 0) == count, "\(messages) lines, \(fields)")
    }

    /// `--events -` above the region while the presenter takes 3 s a
    /// frame (within its hook budget): the lines wait for the presenter
    /// thread, past the end's patience, yet the outcome line is written
    /// once the region is gone. It was lost: the run returned while the
    /// writer still waited to print above a region that had ended.
    @Test func eventsBehindASlowPresenterAreWrittenOnceTheRegionIsGone() throws {
        let plugins = try FixtureBuilder.directory([.misbehaving])
        let run = try MeasuredRun(
            [
                "run", "--plugin-dir", plugins.path, "--presenter", "fixture.misbehaving", "--hook-timeout", "20",
                "--events", "-", "--", "sh", "-c",
                "echo 10% >&$PRESENTER_PROGRESS_FD; echo 20% >&$PRESENTER_PROGRESS_FD; exit 4",
            ], environment: ["FIXTURE_MISBEHAVE": "sleep:render", "FIXTURE_SLEEP_MS": "3000"])
        let output = String(decoding: run.output, as: UTF8.self)
        #expect(run.status == 4, "\(output.suffix(800))")
        #expect(output.contains(#""event":"failure""#), "\(output.suffix(800))")
        #expect(output.contains(#""status":4"#), "\(output.suffix(800))")
    }

    @Test func aStalledLogReaderNeverStallsTheCommandAndALastLineCountsWhatWasDropped() throws {
        // The FIFO is held open (read and write) so that the host's open finds
        // a reader; the reader reads only once the command is done, up to the
        // line counting what was dropped.
        let run = try BoundedScript(
            """
            mkfifo done log
            exec 5<>log
            start=$(date +%s%N)
            "$HOST" run --log log -- \(Self.reporter(then: "echo > done; exit 4")) 2>host.err &
            host=$!
            read -r _ < done
            sed -n '/log lines\\{0,1\\} dropped/{p;q;}' <&5 > dropped
            wait $host
            echo "status=$?"
            echo "ms=$(( ($(date +%s%N) - start) / 1000000 ))"
            """)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.values["status"] == "4", "\(run.transcript)")
        #expect((run.seconds("ms") ?? .infinity) < TestTime.scaled(30), "\(run.transcript)")
        #expect(run.peakBytes < Self.memoryBound, "\(run.peakBytes) bytes")
        let dropped = try String(contentsOfFile: run.folder + "/dropped", encoding: .utf8)
        #expect(dropped.contains("log lines dropped: the log's reader was too slow"), "\(dropped)")
    }

    /// A reader that never reads at all, and SIGTERM: the run ends as its
    /// command does (143), within the end's patience for the reader.
    @Test func sigtermEndsARunWhoseEventsReaderNeverReads() throws {
        let run = try BoundedScript(
            """
            mkfifo out ready
            exec 3<>out
            "$HOST" run --events - -- \(Self.reporter(then: "echo > ready; exec sleep 600")) > out 2>host.err &
            host=$!
            read -r _ < ready
            start=$(date +%s%N)
            kill -TERM $host
            wait $host
            echo "status=$?"
            echo "ms=$(( ($(date +%s%N) - start) / 1000000 ))"
            """)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.values["status"] == "143", "\(run.transcript)")
        // The command ends at once; the host then waits at most 1 s for the reader.
        #expect((run.seconds("ms") ?? .infinity) < TestTime.scaled(5), "\(run.transcript)")
    }

    @Test func aFIFOAtTheStoresPathIsRefusedNotWaitedOn() throws {
        let run = try BoundedScript(
            """
            mkfifo store.json
            start=$(date +%s%N)
            "$HOST" add-bookmark --url https://a.example/ --title A --add --store store.json 2>add.err
            echo "add=$?"
            "$HOST" bookmarks --store store.json 2>list.err
            echo "list=$?"
            echo "ms=$(( ($(date +%s%N) - start) / 1000000 ))"
            """)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.values["add"] == "1", "\(run.transcript)")
        #expect(run.values["list"] == "66", "\(run.transcript)")
        #expect((run.seconds("ms") ?? .infinity) < TestTime.scaled(20), "\(run.transcript)")
        for file in ["add.err", "list.err"] {
            let error = try String(contentsOfFile: run.folder + "/" + file, encoding: .utf8)
            #expect(
                error.contains(
                    "store.json: the bookmark store is not a regular file; give a file's path to --store or PRESENTER_BOOKMARKS"
                ), "\(file): \(error)")
        }
    }

    /// A save waiting for the lock another save holds (here this test's):
    /// each trapped signal ends it within 1 s with the signal's status, and
    /// it commits nothing, then or once the lock frees.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP, SIGQUIT])
    func aSaveWaitingForTheLockEndsOnTheSignalAndCommitsNothing(_ signal: Int32) throws {
        let folder = TestPaths.temporaryDirectory("wait").path
        let store = folder + "/store.json"
        try BookmarkStore(path: store).add(Bookmark(url: "https://a.example/", title: "A"))
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let lock = open(store + ".lock", O_RDONLY | O_CLOEXEC)
        #expect(lock >= 0)
        #expect(flock(lock, LOCK_EX) == 0)
        let run = try BoundedScript(
            """
            mkfifo errors
            "$HOST" add-bookmark --url https://b.example/ --title B --add --store store.json 2>errors &
            host=$!
            exec 4<errors
            while IFS= read -r line <&4; do echo "$line" >> err; case $line in *Saving*) break;; esac; done
            start=$(date +%s%N)
            kill -\(signal) $host
            wait $host
            echo "status=$?"
            echo "ms=$(( ($(date +%s%N) - start) / 1000000 ))"
            cat <&4 >> err
            """, folder: folder)
        flock(lock, LOCK_UN)
        close(lock)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.values["status"] == "\(128 + signal)", "\(run.transcript)")
        #expect((run.seconds("ms") ?? .infinity) < TestTime.scaled(1), "\(run.transcript)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        let error = try String(contentsOfFile: folder + "/err", encoding: .utf8)
        #expect(!error.contains("saved"), "\(error)")
        // No leftover temporary file either.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(!names.contains { $0.hasPrefix(".store.json.tmp-") }, "\(names)")
    }

    /// 300 MB (sparse) is refused from its size, before a byte is read:
    /// quickly, and in little memory (reading it took 13 to 20 s and 1.9 GB
    /// for a real store of that size).
    @Test func aStoreOverTheMaximumIsRefusedBeforeItIsRead() throws {
        let run = try BoundedScript(
            """
            truncate -s 300M store.json
            start=$(date +%s%N)
            "$HOST" bookmarks --store store.json 2>list.err
            echo "list=$?"
            "$HOST" add-bookmark --url https://a.example/ --title A --add --store store.json 2>add.err
            echo "add=$?"
            echo "ms=$(( ($(date +%s%N) - start) / 1000000 ))"
            """)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.values["list"] == "65", "\(run.transcript)")
        #expect(run.values["add"] == "1", "\(run.transcript)")
        #expect((run.seconds("ms") ?? .infinity) < TestTime.scaled(20), "\(run.transcript)")
        #expect(run.peakBytes < 150 << 20, "\(run.peakBytes) bytes")
        let error = try String(contentsOfFile: run.folder + "/list.err", encoding: .utf8)
        #expect(
            error.contains(
                "store.json: the bookmark store is 314572800 bytes, over the 16777216 bytes (16 MiB) a store may have; it was not read"
            ), "\(error)")
        #expect(FileManager.default.fileExists(atPath: run.folder + "/store.json"))
    }

    /// Whoever can write the store's folder cannot make the saver create a
    /// file elsewhere through a link at the lock's name.
    @Test func theLockIsNotOpenedThroughALink() throws {
        let run = try BoundedScript(
            """
            ln -s "$DIR/victim" store.json.lock
            "$HOST" add-bookmark --url https://a.example/ --title A --add --store store.json 2>add.err
            echo "add=$?"
            """)
        #expect(run.values["add"] == "1", "\(run.transcript)")
        #expect(!FileManager.default.fileExists(atPath: run.folder + "/victim"))
        #expect(!FileManager.default.fileExists(atPath: run.folder + "/store.json"))
        let error = try String(contentsOfFile: run.folder + "/add.err", encoding: .utf8)
        #expect(
            error.contains(
                "store.json.lock: the bookmark store's lock file is a symbolic link, which is not followed; remove it; the store was not changed"
            ), "\(error)")
    }

    /// `PRESENTER_BOOKMARKS=dir/` names no file: refused before anything is
    /// made for it (a stray `dir/.lock` was left).
    @Test func aStorePathEndingInASlashLeavesNoLock() throws {
        let run = try BoundedScript(
            """
            mkdir dir
            PRESENTER_BOOKMARKS=dir/ "$HOST" add-bookmark --url https://a.example/ --title A --add 2>add.err
            echo "add=$?"
            """)
        #expect(run.values["add"] == "1", "\(run.transcript)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: run.folder + "/dir") == [])
    }

    /// A link another user put in a sticky, world-writable folder (`/tmp`)
    /// is not followed by `--log` or `--events` (it would append to, or
    /// create, whatever its owner chose), whatever `protected_symlinks` says;
    /// the user's own link there is.
    @Test(.enabled(if: geteuid() == 0, "needs root, to place a link as uid 65534 with setpriv"))
    func logAndEventsRefuseALinkAnotherUserPlacedInASharedFolder() throws {
        let run = try BoundedScript(
            """
            mkdir shared && chmod 1777 shared
            chmod 755 "$DIR"
            setpriv --reuid=65534 --regid=65534 --clear-groups ln -s "$DIR/victim" shared/theirs || exit 98
            ln -s "$DIR/mine" shared/mine
            "$HOST" run --log shared/theirs -- true 2>log.err
            echo "log=$?"
            "$HOST" run --events shared/theirs -- true 2>events.err
            echo "events=$?"
            "$HOST" run --log shared/mine -- true
            echo "own=$?"
            """)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.values["log"] == "73", "\(run.transcript)")
        #expect(run.values["events"] == "73", "\(run.transcript)")
        #expect(run.values["own"] == "0", "\(run.transcript)")
        #expect(!FileManager.default.fileExists(atPath: run.folder + "/victim"))
        #expect(FileManager.default.fileExists(atPath: run.folder + "/mine"))
        for (file, option) in [("log.err", "--log"), ("events.err", "--events")] {
            let error = try String(contentsOfFile: run.folder + "/" + file, encoding: .utf8)
            #expect(
                error.contains(
                    "\(option) shared/theirs: a symbolic link that another user (uid 65534) placed in a shared folder; it is not followed"
                ), "\(error)")
        }
    }

    /// A file or FIFO another user made in a sticky, world-writable folder,
    /// even one all may write, is not appended to by `--log` or `--events`
    /// (it is theirs to read, under a name they chose), whatever
    /// `protected_regular` says; the user's own file there is.
    @Test(.enabled(if: geteuid() == 0, "needs root, to make a file as uid 65534 with setpriv"))
    func logAndEventsRefuseAFileAnotherUserMadeInASharedFolder() throws {
        let run = try BoundedScript(
            """
            mkdir shared && chmod 1777 shared
            chmod 755 "$DIR"
            setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'umask 0; : > shared/theirs; mkfifo shared/fifo' || exit 98
            : > shared/mine
            python3 -c 'import os, sys; os.set_inheritable(os.open("shared/fifo", os.O_RDWR), True); os.execv(sys.argv[1], sys.argv[1:])' \\
                "$HOST" run --events shared/fifo -- true 2>fifo.err
            echo "fifo=$?"
            "$HOST" run --log shared/theirs -- true 2>log.err
            echo "log=$?"
            "$HOST" run --events shared/theirs -- true 2>events.err
            echo "events=$?"
            "$HOST" run --events shared/mine -- true
            echo "own=$?"
            echo "theirs=$(wc -c < shared/theirs)"
            """)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.values["log"] == "73", "\(run.transcript)")
        #expect(run.values["events"] == "73", "\(run.transcript)")
        #expect(run.values["own"] == "0", "\(run.transcript)")
        #expect(run.values["theirs"] == "0", "\(run.transcript)")
        // A FIFO of theirs, with a reader on it (the host's own inherited
        // descriptor, so that the open does not fail for want of one): not
        // written to either.
        #expect(run.values["fifo"] == "73", "\(run.transcript)")
        let mine = try String(contentsOfFile: run.folder + "/shared/mine", encoding: .utf8)
        #expect(mine.contains(#""event":"success""#))
        for (file, option) in [("log.err", "--log"), ("events.err", "--events")] {
            let error = try String(contentsOfFile: run.folder + "/" + file, encoding: .utf8)
            #expect(
                error.contains(
                    "\(option) shared/theirs: a file that another user (uid 65534) made in a shared folder; it is not written to"
                ), "\(error)")
        }
    }

    /// `kill -TSTP` then `kill -CONT` at once, as supervisors and scripts
    /// send them, 20 times: the SIGCONT must not be lost to the host's own
    /// stop (which left `run` stopped for good in 7 or 8 of 10 tries), so
    /// every run ends with its command's status. A watchdog continues a run
    /// still there 10 s later and counts it as stuck. One stuck run in 20
    /// is let pass: SignalTrap's Stopper documents the instants left (a
    /// SIGCONT handled on another thread before the handler's first
    /// instruction, or generated just before its resend, seen about once
    /// in 300 on a machine loaded far past its cores); the code before
    /// this test got stuck in 7 or 8 of 10, so it still fails there.
    @Test func tstpAndContSentTogetherNeverLeaveTheRunStopped() throws {
        let run = try BoundedScript(
            """
            stuck=0 wrong=0
            for i in $(seq 1 20); do
                mkfifo ready
                "$HOST" run -- sh -c 'echo > ready; sleep 0.2; exit 7' 2>>host.err &
                host=$!
                read -r _ < ready
                rm ready
                kill -TSTP $host; kill -CONT $host
                ( sleep 10; kill -CONT $host 2>/dev/null && echo "stuck $i" >> stuck ) &
                watchdog=$!
                wait $host
                status=$?
                kill $watchdog 2>/dev/null
                [ "$status" = 7 ] || { wrong=$((wrong + 1)); echo "run $i: status $status" >> wrong; }
                [ "$(cat stuck 2>/dev/null | wc -l)" -ge 2 ] && break  # enough to fail, and each costs 10 s
            done
            echo "stuck=$(cat stuck 2>/dev/null | wc -l)"
            echo "wrong=$wrong"
            """)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(["0", "1"].contains(run.values["stuck"]), "\(run.transcript)")
        #expect(run.values["wrong"] == "0", "\(run.transcript)")
    }
}
