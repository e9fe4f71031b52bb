import Foundation

/// The machine's process table, read from /proc as `ps` reads it.
public enum ProcessTable {
    /// The pids whose parent is `process` (a crashed Swift process's `swift-backtrace`, say).
    public static func children(of process: Int32) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { name -> Int32? in
            guard let pid = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After the command in parentheses: state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == process ? pid : nil
        }
    }
}
