import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// The tests' own process starter (Foundation's crashes the runner now and then, see `ChildProcess`).
@Suite("Test support: child processes")
struct ChildProcessTests {
    @Test("a child gets its arguments, environment and output pipe, none of the runner's other descriptors, and its exit code")
    func childProcess() throws {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "echo \"$GREETING\"; ls /proc/self/fd; exit 3"]
        child.environment = ["GREETING": "hello", "PATH": "/usr/bin:/bin"]
        let pipe = Pipe()
        child.standardOutput = pipe
        child.standardError = FileHandle.nullDevice
        try child.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        #expect(!child.isRunning && child.terminationStatus == 3)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first == "hello")
        // ls lists 0, 1, 2 and the descriptor of the directory it reads: nothing inherited.
        #expect(lines.dropFirst().compactMap { Int($0) }.filter { $0 > 3 }.isEmpty, "\(lines)")
    }

    @Test("terminate ends a child with SIGTERM, reported as the signal's number")
    func terminate() throws {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["30"]
        try child.run()
        #expect(child.isRunning && child.processIdentifier > 0)
        child.terminate()
        child.waitUntilExit()
        #expect(child.terminationStatus == SIGTERM)
    }
}
