import PlatformCore
import PlatformEvents

/// Holds a service's `Config` type to the registry's required settings (`ServiceIdentity.requiredSettings`): with
/// them all it starts, and without any one of them it is refused naming that one. `values`: a valid value for each.
/// Returns what did not hold, one line each (empty when the registry and the type agree).
public func requiredSettingsProblems(
    of service: ServiceIdentity, values: [String: String], make: ([String: String]) throws(ConfigError) -> Void
) -> [String] {
    var problems: [String] = []
    let given = Dictionary(uniqueKeysWithValues: service.requiredSettings.map { ($0, values[$0, default: ""]) })
    do {
        try make(given)
    } catch {
        problems.append("\(service.name) does not start with only its required settings: \(error)")
    }
    for setting in service.requiredSettings {
        do {
            try make(given.filter { $0.key != setting })
            problems.append("\(service.name) starts without \(setting), which the registry says it requires")
        } catch {
            if error != .missing(variable: setting) { problems.append("\(service.name) without \(setting) is refused for \(error)") }
        }
    }
    return problems
}
