/// A guest's answer to one survey question (N4), and what it is worth: five answers make a service's points.
package enum SurveyRating: String, CaseIterable, Sendable {
    case excellent, good, fair, poor

    package var points: Int {
        switch self {
        case .excellent: 20
        case .good: 10
        case .fair: 5
        case .poor: 0
        }
    }
}
