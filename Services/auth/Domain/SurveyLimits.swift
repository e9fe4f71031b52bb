/// The survey flow's try limits (seed 2): 3 wrong PINs a day; 3 tries at each sign-up step; 5 to reset a PIN;
/// 5 to verify the email address.
package struct SurveyLimits: Sendable {
    package let verifyEmail = AttemptLimit(maxFailures: 5, window: 1_800)
    package let verificationMails = AttemptLimit(maxFailures: 3, window: 3_600)
    package let pin = AttemptLimit(maxFailures: 3, window: 86_400)
    package let signUpEmail = AttemptLimit(maxFailures: 3, window: 900)
    package let signUpPin = AttemptLimit(maxFailures: 3, window: 900)
    package let forgotPin = AttemptLimit(maxFailures: 5, window: 1_800)

    package init() {}
}
