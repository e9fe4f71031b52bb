/// Why a telemetry batch was not taken (N1); the API names each one's HTTP answer (`HTTPRefusal`).
package enum TelemetryRefusal: Error, Equatable {
    /// Every event of the batch broke a rule: what each broke.
    case noValidEvents([TelemetryRejection])
    /// The broker did not take the batch: nothing was stored, the client sends it again.
    case brokerUnavailable
    /// The accounts' pseudonyms could not be read or made: nothing was stored, the client sends it again.
    case storeUnavailable
}
