/// The rebuild command's arguments (after `rebuild`).
struct RebuildOptions: Equatable {
    static let usage = "usage: analytics-aggregator rebuild [--allow-shorter-log]"

    /// Switch even when the log holds less than the live generation applied (N6).
    var allowShorterLog = false

    init(arguments: [String]) throws(RebuildOptionError) {
        for argument in arguments {
            switch argument {
            case "--allow-shorter-log": allowShorterLog = true
            default: throw RebuildOptionError(description: "unknown argument \(argument.prefix(100))")
            }
        }
    }
}

struct RebuildOptionError: Error, CustomStringConvertible {
    let description: String
}
