import Foundation
import UnitTestSupport
import WeatherFetcher

/// Test data in the formats the real sources use: the catalogue TSV of `scripts/build-city-catalogue.py`
/// (rows copied from GeoNames) and provider answers in Open-Meteo's and WorldWeatherOnline's JSON.
package enum WeatherFixtures {
    package static let berlin = City(
        id: 2950159, name: "Berlin", asciiName: "Berlin", countryCode: "DE", country: "Germany", region: "Berlin", latitude: 52.52437,
        longitude: 13.41053, timeZone: "Europe/Berlin", population: 3426354)
    package static let bern = City(
        id: 2661552, name: "Bern", asciiName: "Bern", countryCode: "CH", country: "Switzerland", region: "Bern", latitude: 46.94809,
        longitude: 7.44744, timeZone: "Europe/Zurich", population: 121631)
    package static let bergen = City(
        id: 3161732, name: "Bergen", asciiName: "Bergen", countryCode: "NO", country: "Norway", region: "Vestland", latitude: 60.39299,
        longitude: 5.32415, timeZone: "Europe/Oslo", population: 213585)
    package static let zurich = City(
        id: 2657896, name: "Zürich", asciiName: "Zurich", countryCode: "CH", country: "Switzerland", region: "Zurich", latitude: 47.36667,
        longitude: 8.55, timeZone: "Europe/Zurich", population: 341730)
    package static let lodz = City(
        id: 3093133, name: "Łódź", asciiName: "Lodz", countryCode: "PL", country: "Poland", region: "Lodz Voivodeship", latitude: 51.77058,
        longitude: 19.47395, timeZone: "Europe/Warsaw", population: 768755)
    package static let saoPaulo = City(
        id: 3448439, name: "São Paulo", asciiName: "Sao Paulo", countryCode: "BR", country: "Brazil", region: "Sao Paulo", latitude: -23.5475,
        longitude: -46.63611, timeZone: "America/Sao_Paulo", population: 10021295)
    package static let sydney = City(
        id: 2147714, name: "Sydney", asciiName: "Sydney", countryCode: "AU", country: "Australia", region: "New South Wales", latitude: -33.86785,
        longitude: 151.20732, timeZone: "Australia/Sydney", population: 4627345)
    package static let suva = City(
        id: 2198148, name: "Suva", asciiName: "Suva", countryCode: "FJ", country: "Fiji", region: "Central", latitude: -18.14161,
        longitude: 178.44149, timeZone: "Pacific/Fiji", population: 77366)
    package static let honolulu = City(
        id: 5856195, name: "Honolulu", asciiName: "Honolulu", countryCode: "US", country: "United States", region: "Hawaii", latitude: 21.30694,
        longitude: -157.85833, timeZone: "Pacific/Honolulu", population: 371657)
    package static let sanJose = City(
        id: 5392171, name: "San Jose", asciiName: "San Jose", countryCode: "US", country: "United States", region: "California", latitude: 37.33939,
        longitude: -121.89496, timeZone: "America/Los_Angeles", population: 1026908)
    package static let sanJoseCostaRica = City(
        id: 3621849, name: "San José", asciiName: "San Jose", countryCode: "CR", country: "Costa Rica", region: "San Jose", latitude: 9.93333,
        longitude: -84.08333, timeZone: "America/Costa_Rica", population: 335007)

    package static let cities = [berlin, bern, bergen, zurich, lodz, saoPaulo, sydney, suva, honolulu, sanJose, sanJoseCostaRica]
    /// A few of GeoNames' alternate names (W1), in the file's comma-separated column.
    package static let alternateNames: [Int: String] = [
        zurich.id: "Zurigo,Zurich,Zuerich,Цюрих", berlin.id: "Berlino,Berlín", lodz.id: "Lodsch,Lodzia",
    ]

    package static var catalogueTSV: String {
        var lines = [
            "# GeoNames cities15000 (CC BY 4.0) test extract",
            "geonameid\tname\tasciiname\tcountry_code\tcountry\tadmin1_code\tregion\tlatitude\tlongitude\ttimezone\tpopulation\talternatenames",
        ]
        for city in cities {
            lines.append(
                [
                    String(city.id), city.name, city.asciiName, city.countryCode, city.country, "01", city.region,
                    String(format: "%.5f", city.latitude), String(format: "%.5f", city.longitude), city.timeZone,
                    String(city.population), alternateNames[city.id] ?? "",
                ].joined(separator: "\t"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the catalogue to a temporary file and returns its path.
    package static func writeCatalogue() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cities-\(UUID().uuidString).tsv")
        try catalogueTSV.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    // MARK: Open-Meteo

    package static func openMeteoAnswer(
        for locations: [(latitude: Double, longitude: Double, timeZone: String)], now: Date = Date(), temperature: Double = 12.3
    ) -> String {
        OpenMeteoFake.answer(for: locations, now: now, temperature: temperature)
    }

    package static func openMeteoAnswer(toQuery query: [String: String], temperature: Double = 12.3) -> String {
        OpenMeteoFake.answer(toQuery: query, temperature: temperature)
    }

    /// A single-location answer exactly as api.open-meteo.com printed it (trimmed to 3 hours and 1 day).
    package static let openMeteoRecorded = """
        {"latitude":52.52,"longitude":13.419998,"generationtime_ms":0.0940561294555664,"utc_offset_seconds":3600,\
        "timezone":"Europe/Berlin","timezone_abbreviation":"GMT+1","elevation":38.0,\
        "current_units":{"time":"unixtime","interval":"seconds","temperature_2m":"°C","relative_humidity_2m":"%",\
        "dew_point_2m":"°C","weather_code":"wmo code","pressure_msl":"hPa","wind_speed_10m":"km/h","wind_direction_10m":"°","visibility":"m"},\
        "current":{"time":1732352400,"interval":900,"temperature_2m":4.6,"relative_humidity_2m":87,"dew_point_2m":2.6,\
        "weather_code":3,"pressure_msl":1009.8,"wind_speed_10m":14.8,"wind_direction_10m":247,"visibility":18600.0},\
        "hourly_units":{"time":"unixtime","temperature_2m":"°C","weather_code":"wmo code"},\
        "hourly":{"time":[1732316400,1732320000,1732323600],"temperature_2m":[3.9,3.7,null],"weather_code":[3,61,null],\
        "relative_humidity_2m":[90,91,null],"pressure_msl":[1010.1,1010.0,null],"wind_speed_10m":[12.2,13.0,null],\
        "wind_direction_10m":[240,245,null],"wind_gusts_10m":[25.2,27.0,null],"precipitation":[0.00,0.30,null],\
        "snowfall":[0.00,0.00,null],"visibility":[20000.0,15400.0,null]},\
        "daily_units":{"time":"unixtime","weather_code":"wmo code","temperature_2m_max":"°C","temperature_2m_min":"°C",\
        "sunrise":"unixtime","sunset":"unixtime"},\
        "daily":{"time":[1732316400],"weather_code":[61],"temperature_2m_max":[6.1],"temperature_2m_min":[2.4],\
        "sunrise":[1732344467],"sunset":[1732374611]}}
        """

    // MARK: WorldWeatherOnline

    /// A WorldWeatherOnline answer (`format=json&tp=1`) as its API prints it, trimmed to two days of two hours.
    package static func worldWeatherOnlineAnswer(today: String, tomorrow: String, temperature: Int = 3) -> String {
        func hour(_ time: String, _ temp: Int, _ code: String, _ desc: String, dew: Int) -> String {
            """
            {"time":"\(time)","tempC":"\(temp)","tempF":"37","windspeedMiles":"8","windspeedKmph":"13","winddirDegree":"235",\
            "winddir16Point":"SW","weatherCode":"\(code)","weatherIconUrl":[{"value":"https://cdn.worldweatheronline.com/images/wsymbols01_png_64/wsymbol_0004_black_low_cloud.png"}],\
            "weatherDesc":[{"value":"\(desc)"}],"precipMM":"0.4","precipInches":"0.0","humidity":"89","visibility":"10",\
            "visibilityMiles":"6","pressure":"1012","pressureInches":"30","cloudcover":"100","HeatIndexC":"2","HeatIndexF":"36",\
            "DewPointC":"\(dew)","DewPointF":"32","WindChillC":"-2","WindChillF":"28","WindGustMiles":"15","WindGustKmph":"24",\
            "FeelsLikeC":"-2","FeelsLikeF":"28","chanceofrain":"0","chanceofremdry":"86","chanceofwindy":"0",\
            "chanceofovercast":"88","chanceofsunshine":"11","chanceoffrost":"21","chanceofhightemp":"0","chanceoffog":"0",\
            "chanceofsnow":"0","chanceofthunder":"0","uvIndex":"1"}
            """
        }
        func day(_ date: String, max: Int, min: Int, hours: [String]) -> String {
            """
            {"date":"\(date)","astronomy":[{"sunrise":"07:45 AM","sunset":"04:02 PM","moonrise":"11:03 PM","moonset":"01:20 PM",\
            "moon_phase":"Waning Gibbous","moon_illumination":"54"}],"maxtempC":"\(max)","maxtempF":"39","mintempC":"\(min)",\
            "mintempF":"34","avgtempC":"2","avgtempF":"36","totalSnow_cm":"0.0","sunHour":"3.0","uvIndex":"1",\
            "hourly":[\(hours.joined(separator: ","))]}
            """
        }
        return """
            {"data":{"request":[{"type":"LatLon","query":"Lat 52.52 and Lon 13.41"}],\
            "current_condition":[{"observation_time":"09:15 AM","localObsDateTime":"\(today) 10:15 AM","temp_C":"\(temperature)",\
            "temp_F":"37","weatherCode":"122","weatherIconUrl":[{"value":"https://cdn.worldweatheronline.com/images/wsymbols01_png_64/wsymbol_0004_black_low_cloud.png"}],\
            "weatherDesc":[{"value":"Overcast"}],"windspeedMiles":"9","windspeedKmph":"15","winddirDegree":"240","winddir16Point":"WSW",\
            "precipMM":"0.0","precipInches":"0.0","humidity":"87","visibility":"10","visibilityMiles":"6","pressure":"1012",\
            "pressureInches":"30","cloudcover":"100","FeelsLikeC":"-1","FeelsLikeF":"30","uvIndex":"1"}],\
            "weather":[\(day(today, max: 4, min: 1, hours: [hour("900", 2, "122", "Overcast ", dew: 0), hour("1000", 3, "296", "Light rain", dew: 1), hour("1100", 3, "296", "Light rain", dew: 1)])),\
            \(day(tomorrow, max: 6, min: 0, hours: [hour("0", 1, "113", "Clear ", dew: -1), hour("1200", 5, "338", "Heavy snow", dew: 0)]))],\
            "ClimateAverages":[{"month":[{"index":"1","name":"January","avgMinTemp":"-1.5","avgMinTemp_F":"29.3","absMaxTemp":"4.9","absMaxTemp_F":"40.9","avgDailyRainfall":"1.52"}]}]}}
            """
    }

    package static let worldWeatherOnlineError = #"{"data":{"error":[{"msg":"API key has reached calls per day allowed limit."}]}}"#
}
