import Foundation
import Testing
@testable import HostCommandLine

@Suite("run: messages file")
struct MessagesFileTests {
    private func parse(_ text: String) throws(CommandError) -> MessagesFile {
        try MessagesFile.parse(Array(text.utf8), name: "messages.json")
    }

    private func dataError(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            #expect(error.exitCode == .dataError)
            return error.message
        }
    }

    @Test func goodFile() throws {
        let file = try parse(
            """
            {
              "get-title": {"working": ""},
              "add-bookmark": {"working": "Saving bookmark...", "success": "Bookmark saved!",
                               "failure": "An error occurred saving the bookmark"},
              "default": {"working": "Working \\"hard\\"\\n\\u00e9\\ud83d\\ude00", "failure": "Failed"}
            }
            """)
        #expect(file.actions.count == 3)
        #expect(file.actions["get-title"] == MessagesFile.Messages(working: ""))
        #expect(
            file.actions["add-bookmark"]
                == MessagesFile.Messages(
                    working: "Saving bookmark...", success: "Bookmark saved!",
                    failure: "An error occurred saving the bookmark"))
        #expect(file.actions["default"]?.working == "Working \"hard\"\né😀")
        #expect(file.actions["default"]?.success == nil)
    }

    @Test func emptyObjectIsFine() throws {
        #expect(try parse(" {} \n").actions.isEmpty)
    }

    @Test func malformedJSONHasLineAndColumn() {
        #expect(
            dataError("{\n  \"run\": {\n    \"working\": \"x\" \"success\": \"y\"}\n}")
                == "messages.json:3:20: expected ',' or '}', found '\"'")
        #expect(dataError("{\"run\": {\"working\": \"x\"},}") == "messages.json:1:26: expected a string key, found '}'")
        #expect(dataError("{\"run\" {}}") == "messages.json:1:8: expected ':', found '{'")
        #expect(
            dataError("{\"run\": {\"working\": \"abc")
                == "messages.json:1:25: unterminated string: end of file before the closing '\"'")
        #expect(dataError("{\"a\": tru}") == "messages.json:1:10: expected 'true', found '}'")
        #expect(dataError("{\"a\": 01}") == "messages.json:1:8: expected ',' or '}', found '1'")
        #expect(dataError("{\"a\": \"\\q\"}") == "messages.json:1:9: invalid escape '\\q' in a string")
        #expect(dataError("{} x") == "messages.json:1:4: unexpected 'x' after the JSON value")
        #expect(dataError("{\"a\": \"tab\there\"}")?.hasPrefix("messages.json:1:11: control character") == true)
        #expect(dataError("{\"é\": [1, }") == "messages.json:1:11: expected a JSON value, found '}'")
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(dataError("{\"ééé\": x}") == "messages.json:1:9: expected a JSON value, found 'x'")
    }

    @Test func unknownStatusHasItsPath() {
        #expect(
            dataError(#"{"get-title": {"workin": "x"}}"#)
                == "messages.json: /get-title/workin: unknown status 'workin' (expected working, success, failure)")
        #expect(
            dataError(#"{"a/b~c": {"done": "x"}}"#)?.hasPrefix("messages.json: /a~1b~0c/done: unknown status") == true)
    }

    @Test func wrongTypeHasItsPath() {
        #expect(
            dataError(#"{"run": {"working": 3}}"#) == "messages.json: /run/working: expected a string, found a number")
        #expect(
            dataError(#"{"run": {"success": null}}"#) == "messages.json: /run/success: expected a string, found null")
        #expect(
            dataError(#"{"run": "Working..."}"#)
                == "messages.json: /run: expected an object of messages, found a string")
        #expect(dataError(#"["run"]"#) == "messages.json: /: expected an object of actions, found an array")
    }

    @Test func duplicates() {
        #expect(dataError(#"{"run": {}, "run": {}}"#) == "messages.json: /run: action 'run' appears twice")
        #expect(
            dataError(#"{"run": {"working": "a", "working": "b"}}"#)
                == "messages.json: /run/working: status 'working' appears twice")
    }

    @Test func emptyFile() {
        #expect(
            dataError("")
                == #"messages.json: the file is empty; expected an object such as {"run": {"working": "..."}}"#)
        #expect(dataError(" \n\t") != nil)
    }

    @Test func invalidUTF8() {
        do {
            _ = try MessagesFile.parse([0x7b, 0x0a, 0x20, 0xff, 0x7d], name: "m.json")
            Issue.record("expected an error")
        } catch {
            #expect(error == .dataError("m.json:2:2: not valid UTF-8 text; save the file as UTF-8"))
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let text = "{\"a\": " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        #expect(dataError(text)?.contains("nested more than") == true)
    }

    @Test func loadReadsTheFileAndNamesAMissingOne() throws {
        let dir = TestPaths.temporaryDirectory("messages")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("m.json").path
        try Data(#"{"run": {"working": "W"}}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try MessagesFile.load(path: path).actions["run"]?.working == "W")

        let missing = dir.appendingPathComponent("nope.json").path
        #expect(
            throws: CommandError.noInput(
                "\(missing): cannot read the messages file: No such file or directory; check the path given to --messages"
            )
        ) {
            try MessagesFile.load(path: missing)
        }
        #expect(
            throws: CommandError.noInput(
                "\(dir.path): cannot read the messages file: Is a directory; check the path given to --messages")
        ) {
            try MessagesFile.load(path: dir.path)
        }
    }
}
