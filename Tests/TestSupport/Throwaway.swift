import Foundation

/// `scripts/throwaway.sh` (the throw-away cluster's and broker's start and stop), run to its end.
enum Throwaway {
    static let script = RepositoryFiles.root.appendingPathComponent("scripts/throwaway.sh").path

    /// Runs the script with `arguments` (`postgres-start DATA PORT LOG`, `broker-stop PIDFILE`...).
    static func run(_ arguments: [String], environment extra: [String: String] = [:]) throws {
        try runCommand(["/bin/bash", script] + arguments, environment: extra)
    }

    /// Runs `command` (an executable's path, then its arguments) to its end; throws with its standard error when it fails.
    static func runCommand(_ command: [String], environment extra: [String: String] = [:]) throws {
        guard let executable = command.first else { throw ClusterError("no command") }
        // ChildProcess waits for the command's own exit (waitpid), so a server it leaves running does not hold the
        // wait, and it passes on no descriptor of this process but the three standard ones.
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(command.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        // A file, not a pipe: a server the command starts would hold a pipe open, and reading it would never end.
        let errorFile = NSTemporaryDirectory() + "throwaway-\(uniqueSuffix()).err"
        _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorFile) }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorFile))
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let output = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
            throw ClusterError("\(command.joined(separator: " ")) failed: \(output)")
        }
    }
}
