/// The user-facing texts of the seeds, verbatim (U1–U4), with the stable codes clients switch on.
package enum AuthMessages {
    // Dashboard login (weather-app-user-stories.txt, "Accessing Dashboard: Log-in").
    package static let invalidEmail = "you entered an invalid email, Please try again"
    package static let notRegistered = "you entered not registered email, Please try again"
    package static let wrongPassword = "you entered invalid password, Please try again"
    /// The seed leaves this message blank (`Error Message ""`); an empty string would help no one.
    package static let emptyField = "Please fill in every field"

    // Forgot password (story 22).
    package static let resetLinkSent = "Please check your email to find the reset link"
    package static let resetInvalidEmail = "invalid email"
    package static let passwordsDiffer = "two entered passwords are not the same"
    package static let passwordChanged = "Your password has been changed"
    package static let resetLinkInvalid = "This reset link is not valid: it has expired or has already been used. Please request a new one."

    // Change password (story 25).
    package static let confirmationMismatch = "the password and confirm password don't match"
    package static let currentPasswordWrong = "the current password is wrong"
    package static let passwordPolicy =
        "the password must be at least 8 characters long and contain an upper-case letter, a lower-case letter and a number"

    // Hotel survey (hotel-survey-login.txt).
    package static let pinFormat = "the PIN must be exactly 4 letters or digits"
    package static let pinsDiffer = "the PIN and its confirmation are not the same"
    package static let invalidPinCode = "the reset code is wrong or has expired"
    package static let wrongPin = "wrong PIN, please try again"
    package static let pinTriesExhausted = "too many wrong PINs: please reset your PIN"
    package static let unknownSurveyEmail = "this email is not registered: please sign up"
    package static let signUpEmailInvalid = "please enter a valid email address"
    package static let alreadyRegistered = "this email is already registered"

    package static let tooManyAttempts = "too many attempts, please try again later"
    package static let banned = "this account is suspended"
}
