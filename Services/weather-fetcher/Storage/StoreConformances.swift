import Foundation
import WeatherFetcherCore

/// The Postgres stores behind the use cases' protocols.
extension UserCityStore: FavouriteCities, RecentCityViews {}
extension CityStore: CityDirectory {}
extension WeatherStore: WeatherReports {}
extension SharedTextStore: SharedTexts {}
extension CityWarningStore: ActiveCityWarnings {}
