/// The dashboard's answers through `AnswerCache`, one cache per kind of page, keyed by the page's parameters.
struct StatsAnswers: Sendable {
    typealias Schemas = Components.Schemas

    let home: AnswerCache<Schemas.HomeStats>
    let features: AnswerCache<StatsPage<Schemas.Feature>>
    let locations: AnswerCache<StatsPage<Schemas.Location>>
    let downloads: AnswerCache<StatsPage<Schemas.DownloadPage.ItemsPayloadPayload>>
    let poll: AnswerCache<[Schemas.PollQuestionResult]>
    let survey: AnswerCache<Schemas.SurveyStats>
    let trends: AnswerCache<Schemas.Trend>

    init(lifetime: Duration) {
        home = AnswerCache(lifetime: lifetime)
        features = AnswerCache(lifetime: lifetime)
        locations = AnswerCache(lifetime: lifetime)
        downloads = AnswerCache(lifetime: lifetime)
        poll = AnswerCache(lifetime: lifetime)
        survey = AnswerCache(lifetime: lifetime)
        trends = AnswerCache(lifetime: lifetime)
    }
}

/// One page of a list and how many there are in all.
struct StatsPage<Item: Sendable>: Sendable {
    var items: [Item]
    var total: Int
}
