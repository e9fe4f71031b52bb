import ArgumentParser
import PlatformEvents

struct RequiredSettings: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "required-settings",
        abstract: "Print the settings a service refuses to start without, one per line, from the registry.",
        discussion: """
            The platform's (AUTH_PUBLIC_KEY, ERASED_ACCOUNTS_KEY) and the service's own (ServiceIdentity.requiredSettings): the local stack \
            exports each from its generated keys, so a setting made required in the registry reaches the stack without \
            an edit of the script.
            """)

    @Argument(help: "The service's name, as in the registry (weather-fetcher, auth, ...).") var service: String

    func run() throws {
        guard let identity = ServiceIdentity.all.first(where: { $0.name == service }) else {
            throw ValidationError("no service \(service) in the registry: \(ServiceIdentity.all.map(\.name).joined(separator: ", "))")
        }
        identity.allRequiredSettings.forEach { print($0) }
    }
}
