import PlatformHTTP

/// weather-fetcher's refusals as HTTP: the one place the stores' and use cases' outcomes become HTTP errors.
enum WeatherErrors {
    /// A search Postgres cancelled at its statement timeout.
    static let searchTooBroad = APIError(
        .unprocessableContent, code: "search_too_broad", message: "the search matches too much to answer in time; narrow it")
    static let catalogueEmpty = APIError(.notFound, code: "catalogue_empty", message: "the city catalogue has not been imported")

    static func cityNotFound(_ id: Int) -> APIError { APIError(.notFound, code: "city_not_found", message: "no city with id \(id)") }

    static func answer(for refusal: FavouriteRefusal) -> APIError {
        switch refusal {
        case .cityNotFound(let id): cityNotFound(id)
        case .tooManyFavourites(let limit):
            APIError(.unprocessableContent, code: "too_many_favourites", message: "an account keeps at most \(limit) favourite cities")
        }
    }

    static func answer(for unavailable: CityShareTexts.Unavailable) -> APIError {
        switch unavailable {
        case .noAppLink: APIError(.notFound, code: "no_app_link", message: "no app link is configured (WEATHER_APP_LINK)")
        case .noActiveWarning(let city): APIError(.notFound, code: "no_active_warning", message: "\(city) has no active warning")
        case .weatherUnavailable:
            APIError(.serviceUnavailable, code: "weather_unavailable", message: "no weather data for this city yet", headers: [.retryAfter: "30"])
        case .noForecastForDay(let day): APIError(.notFound, code: "no_forecast_for_day", message: "the provider has no forecast for day \(day)")
        }
    }

    /// A view of a city with no data yet, past the address's on-demand refreshes.
    static func answer(for spent: CityWeatherReader.RefreshesSpent) -> APIError {
        APIError.rateLimited("this address asked for more cities without data than it may this minute", retryAfter: spent.retryAfter)
    }
}

extension FavouriteRefusal: HTTPRefusal {
    package var answer: APIError { WeatherErrors.answer(for: self) }
}

extension CityShareTexts.Unavailable: HTTPRefusal {
    package var answer: APIError { WeatherErrors.answer(for: self) }
}

extension CityWeatherReader.RefreshesSpent: HTTPRefusal {
    package var answer: APIError { WeatherErrors.answer(for: self) }
}

extension CityStore.SearchTooBroad: HTTPRefusal {
    var answer: APIError { WeatherErrors.searchTooBroad }
}
