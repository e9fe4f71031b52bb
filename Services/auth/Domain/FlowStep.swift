/// Where an app goes after an answer of the survey and dashboard flows (U2, U4): the seeds' screens.
/// The document's `FlowStep` enum is this set; a test keeps them equal.
package enum FlowStep: String, CaseIterable, Sendable {
    case welcome
    case login
    case retry
    case signUp = "sign_up"
    case forgotPin = "forgot_pin"
}
