/// The user-facing texts of the seeds, verbatim (U1–U4), with the stable codes clients switch on.
enum AuthMessages {
    // Dashboard login (weather-app-user-stories.txt, "Accessing Dashboard: Log-in").
    static let invalidEmail = "you entered an invalid email, Please try again"
    static let notRegistered = "you entered not registered email, Please try again"
    static let wrongPassword = "you entered invalid password, Please try again"
    /// The seed leaves this message blank (`Error Message ""`); an empty string would help no one.
    static let emptyField = "Please fill in every field"

    // Forgot password (story 22).
    static let resetLinkSent = "Please check your email to find the reset link"
    static let resetInvalidEmail = "invalid email"
    static let passwordsDiffer = "two entered passwords are not the same"
    static let passwordChanged = "Your password has been changed"
    static let resetLinkInvalid = "This reset link is not valid: it has expired or has already been used. Please request a new one."

    // Change password (story 25).
    static let confirmationMismatch = "the password and confirm password don't match"
    static let currentPasswordWrong = "the current password is wrong"
    static let passwordPolicy =
        "the password must be at least 8 characters long and contain an upper-case letter, a lower-case letter and a number"

    // Hotel survey (hotel-survey-login.txt).
    static let pinFormat = "the PIN must be exactly 4 letters or digits"
    static let pinsDiffer = "the PIN and its confirmation are not the same"
    static let invalidPinCode = "the reset code is wrong or has expired"
    static let wrongPin = "wrong PIN, please try again"
    static let pinTriesExhausted = "too many wrong PINs: please reset your PIN"
    static let unknownSurveyEmail = "this email is not registered: please sign up"
    static let signUpEmailInvalid = "please enter a valid email address"
    static let alreadyRegistered = "this email is already registered"

    static let tooManyAttempts = "too many attempts, please try again later"
    static let banned = "this account is suspended"
}
