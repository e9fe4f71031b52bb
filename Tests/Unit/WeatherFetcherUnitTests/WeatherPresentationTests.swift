import Foundation
import Testing
import WeatherFetcherFixtures

@testable import WeatherFetcher

/// The seed's test plans for the city screen (W3-W5), share texts (W10) and search keys (W1), on fixed clocks.
@Suite("weather-fetcher: presentation rules")
struct WeatherPresentationTests {
    static let berlin = WeatherFixtures.berlin

    /// 2024-11-23 15:20 in Berlin (14:20 UTC).
    static let afternoon = Date(timeIntervalSince1970: 1_732_371_600)

    static func report(now: Date, city: City) -> WeatherReport {
        let body = WeatherFixtures.openMeteoAnswer(for: [(city.latitude, city.longitude, city.timeZone)], now: now)
        let reports = try! WeatherProviderDecodingTests.openMeteo.decode(.init(string: body), for: [city], fetchedAt: now)
        return reports[city.id]!
    }

    @Test("W4: hourly starts at the next whole hour and ends at local midnight (3:20 PM gives 4 PM ... 11 PM)")
    func hourlyFromNextHourToMidnight() throws {
        let presenter = try #require(CityWeatherPresenter(city: Self.berlin, now: Self.afternoon))
        let hours = presenter.hours(Self.report(now: Self.afternoon, city: Self.berlin))
        #expect(hours.map(\.hour) == ["4 PM", "5 PM", "6 PM", "7 PM", "8 PM", "9 PM", "10 PM", "11 PM"])
        #expect(hours.first?.time == Date(timeIntervalSince1970: 1_732_374_000))
    }

    @Test("W4: exactly on the hour, that hour is not 'next'; late evening leaves an empty list")
    func hourlyEdges() throws {
        let threePM = Date(timeIntervalSince1970: 1_732_370_400)  // 15:00 Berlin
        let atThree = try #require(CityWeatherPresenter(city: Self.berlin, now: threePM))
        #expect(atThree.hours(Self.report(now: threePM, city: Self.berlin)).first?.hour == "4 PM")
        let lateEvening = Date(timeIntervalSince1970: 1_732_402_200)  // 23:50 Berlin
        let late = try #require(CityWeatherPresenter(city: Self.berlin, now: lateEvening))
        #expect(late.hours(Self.report(now: lateEvening, city: Self.berlin)).isEmpty)
    }

    @Test("W5: five days starting today in the city's zone, with day names")
    func fiveDaysFromToday() throws {
        let presenter = try #require(CityWeatherPresenter(city: Self.berlin, now: Self.afternoon))
        let days = presenter.days(Self.report(now: Self.afternoon, city: Self.berlin))
        #expect(days.map(\.date) == ["2024-11-23", "2024-11-24", "2024-11-25", "2024-11-26", "2024-11-27"])
        #expect(days.map(\.day) == ["Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"])
        #expect(days[0].maxTemperature == "15°C" && days[0].minTemperature == "8°C")
        // Sydney is already on the 24th at that instant: its five days start there.
        let sydney = WeatherFixtures.sydney
        let sydneyPresenter = try #require(CityWeatherPresenter(city: sydney, now: Self.afternoon))
        #expect(sydneyPresenter.days(Self.report(now: Self.afternoon, city: sydney)).first?.date == "2024-11-24")
    }

    @Test("W3: right-now block in mb, km/h, compass point, °C, %, AM/PM local sunrise and sunset, miles")
    func rightNowUnits() throws {
        let presenter = try #require(CityWeatherPresenter(city: Self.berlin, now: Self.afternoon))
        let report = Self.report(now: Self.afternoon, city: Self.berlin)
        let rightNow = presenter.rightNow(report)
        #expect(rightNow.pressure == "1015 mb" && rightNow.pressureMb == 1015.4)
        #expect(rightNow.windSpeed == "11 km/h" && rightNow.windDirection == "SW" && rightNow.windDirectionDegrees == 230)
        #expect(rightNow.dewPoint == "5°C" && rightNow.humidity == "71%")
        #expect(rightNow.sunrise == "07:12 AM" && rightNow.sunset == "04:05 PM")
        #expect(rightNow.visibilityMiles == 6.2 && rightNow.visibility == "6.2 mi")
        #expect(
            presenter.current(report.current)
                == CurrentDTO(condition: .partlyCloudy, description: "Partly cloudy", temperatureC: 12.3, temperature: "12°C"))
    }

    @Test("W3: compass points, miles and 12-hour times convert exactly")
    func conversions() {
        #expect(Units.compassPoint(degrees: 0) == "N" && Units.compassPoint(degrees: 360) == "N")
        #expect(Units.compassPoint(degrees: 11.2) == "N" && Units.compassPoint(degrees: 11.3) == "NNE")
        #expect(Units.compassPoint(degrees: 247) == "WSW" && Units.compassPoint(degrees: -90) == "W")
        #expect(Units.miles(fromKilometres: 1.609344) == 1)
        #expect(LocalClock.twelveHour(hour: 0, minute: 5) == "12:05 AM" && LocalClock.twelveHour(hour: 12, minute: 0) == "12:00 PM")
        #expect(LocalClock.twelveHour(hour: 13, minute: 7) == "01:07 PM")
        #expect(Units.celsius(-0.4) == "0°C" && Units.celsius(-3.6) == "-4°C")
    }

    @Test("W3: 'updated N minutes ago' texts")
    func updatedText() {
        #expect(CityWeatherPresenter.updatedText(minutes: 0) == "updated a moment ago")
        #expect(CityWeatherPresenter.updatedText(minutes: 1) == "updated 1 minute ago")
        #expect(CityWeatherPresenter.updatedText(minutes: 42) == "updated 42 minutes ago")
        #expect(CityWeatherPresenter.updatedText(minutes: 61) == "updated 1 hour ago")
        #expect(CityWeatherPresenter.updatedText(minutes: 3_000) == "updated 2 days ago")
    }

    @Test("W10: share texts follow the seed's templates word for word")
    func shareTemplates() {
        let texts = ShareTexts(appName: "Weather App")
        let report = Self.report(now: Self.afternoon, city: Self.berlin)
        #expect(texts.app(link: "https://apps.example/weather") == "Weather App https://apps.example/weather")
        #expect(texts.home(city: Self.berlin, current: report.current) == "Weather App: The weather today in Berlin is 12°C Partly cloudy")
        let summary = ShareTexts.DaySummary(
            day: report.daily[0], hours: [report.hourly[10], report.hourly[20]], current: report.current)
        #expect(
            texts.forecast(city: Self.berlin, dayName: "Saturday", summary: summary)
                == "Weather App: The weather forecasts for this Saturday in Berlin is 15°C Clear sky, humidity 70%, wind 20 km/h W, pressure 1014 mb")
        #expect(
            texts.warning(city: Self.berlin, status: "Severe wind warning", statusDescription: "Gusts up to 95 km/h")
                == "Weather App: Watch out!! There is a warning in Berlin which is Severe wind warning Gusts up to 95 km/h")
    }

    @Test("W1: search keys ignore case and accents and spell out letters like ł and ß")
    func searchKeys() {
        #expect(SearchKey.fold("Zürich") == "zurich" && SearchKey.fold("ZÜR") == "zur")
        #expect(SearchKey.fold("Łódź") == "lodz" && SearchKey.fold("Straße") == "strasse")
        #expect(SearchKey.fold("  São   Paulo ") == "sao paulo")
        #expect(CitySearchPattern(query: "ber", contains: false)?.likePattern == "ber%")
        #expect(CitySearchPattern(query: "san*jo?e", contains: false)?.likePattern == "san%jo_e%")
        #expect(CitySearchPattern(query: "100%_", contains: true)?.likePattern == "%100\\%\\_%")
        #expect(CitySearchPattern(query: "   ", contains: false) == nil)
    }

    @Test("W1: ASCII text folds without Foundation exactly as with it, spaces and control characters included")
    func asciiFoldMatchesUnicodeFold() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aZ09 \t\n\r-'.,_%*?\\~`!") + (0x00..<0x80).map { Character(Unicode.Scalar(UInt8($0))) }
        var samples = ["", " ", "Bern", "  New   York ", "SAN\tJOSE", "St. John's", "\u{0B}x\u{0C}"]
        for _ in 0..<2_000 {
            samples.append(String((0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for sample in samples {
            #expect(SearchKey.foldASCII(sample) == SearchKey.foldUnicode(sample), "\(sample.debugDescription)")
        }
        #expect(SearchKey.foldASCII("Zürich") == nil && SearchKey.fold("Zürich") == "zurich")
    }

    @Test("W1: the catalogue keeps one alternate name per search key, the accented one, never the city's own key")
    func alternateNamesPerKey() {
        let munich = City(
            id: 2_867_714, name: "Munich", asciiName: "Munich", countryCode: "DE", country: "Germany", region: "Bavaria",
            latitude: 48.137, longitude: 11.575, timeZone: "Europe/Berlin", population: 1_260_391)
        let names = CityStore.alternateNames(of: munich, from: ["Munchen", "München", "MUNICH", "Monaco di Baviera", "  "])
        #expect(names.map(\.name) == ["Monaco di Baviera", "München"])
        #expect(names.map(\.key) == ["monaco di baviera", "munchen"])
    }

    @Test("W1: one- and two-letter searches are kept for their TTL; longer ones are not kept")
    func shortSearchCache() throws {
        let cache = ShortSearchCache(ttl: .seconds(60), capacity: 2)
        let short = try #require(CitySearchPattern(query: "mü", contains: false))
        let longer = try #require(CitySearchPattern(query: "mün", contains: false))
        let containsOne = try #require(CitySearchPattern(query: "m", contains: true))
        #expect(ShortSearchCache.isShort(short) && !ShortSearchCache.isShort(longer) && ShortSearchCache.isShort(containsOne))
        let key = ShortSearchKey(likePattern: short.likePattern, limit: 51, offset: 0)
        let now = ContinuousClock.now
        #expect(cache.value(for: key, now: now) == nil)
        cache.store([CityStore.Match(city: Self.berlin, matchedName: "Berlino")], for: key, now: now)
        #expect(cache.value(for: key, now: now + .seconds(59))?.first?.matchedName == "Berlino")
        #expect(cache.value(for: key, now: now + .seconds(61)) == nil, "expired")
        for offset in 1...2 { cache.store([], for: .init(likePattern: "a%", limit: 51, offset: offset), now: now) }
        #expect(cache.value(for: key, now: now) == nil, "past its capacity the cache starts afresh")
    }

    @Test("W1: a catalogue file with a wrong header or a malformed row is refused, naming the line")
    func catalogueFileErrors() throws {
        #expect(throws: CatalogueFile.FormatError.self) { try CatalogueFile(text: "id\tname\n1\tX\n") }
        let badRow = WeatherFixtures.catalogueTSV + "42\tNowhere\tNowhere\tXX\tX\t01\tR\t95.0\t0\tUTC\t20000\t\n"
        do {
            _ = try CatalogueFile(text: badRow)
            Issue.record("a latitude of 95 was accepted")
        } catch let error as CatalogueFile.FormatError {
            #expect(error.line == WeatherFixtures.cities.count + 3)
        }
        let file = try CatalogueFile(text: WeatherFixtures.catalogueTSV)
        #expect(file.cities.count == WeatherFixtures.cities.count)
        #expect(file.alternateNames[WeatherFixtures.zurich.id] == ["Zurigo", "Zurich", "Zuerich", "Цюрих"])
        #expect(file.alternateNames[WeatherFixtures.bern.id] == nil)
        // A file from before the alternate names column still loads, without them.
        let older = WeatherFixtures.catalogueTSV.split(separator: "\n").map { line in
            line.hasPrefix("#") ? String(line) : line.split(separator: "\t", omittingEmptySubsequences: false).dropLast().joined(separator: "\t")
        }.joined(separator: "\n")
        let olderFile = try CatalogueFile(text: older)
        #expect(olderFile.cities == file.cities && olderFile.alternateNames.isEmpty)
        // A row with a field missing names its line.
        #expect(throws: CatalogueFile.FormatError.self) { try CatalogueFile(text: WeatherFixtures.catalogueTSV + "42\tX\n") }
        #expect(file.checksum != (try CatalogueFile(text: WeatherFixtures.catalogueTSV + "\n")).checksum)
    }
}
