/// The survey flow's try limits (seed 2): 3 wrong PINs a day; 3 tries at each sign-up step; 5 to reset a PIN;
/// 5 to verify the email address.
struct SurveyLimits: Sendable {
    let verifyEmail = AttemptLimit(maxFailures: 5, window: 1_800)
    let verificationMails = AttemptLimit(maxFailures: 3, window: 3_600)
    let pin = AttemptLimit(maxFailures: 3, window: 86_400)
    let signUpEmail = AttemptLimit(maxFailures: 3, window: 900)
    let signUpPin = AttemptLimit(maxFailures: 3, window: 900)
    let forgotPin = AttemptLimit(maxFailures: 5, window: 1_800)
}
