import AnalyticsAggregatorCore
import Foundation

/// The Postgres stores behind the use cases' protocols.
extension PollStore: PollAnswers {}
extension SurveyStore: SurveySubmissions {}
