/// WorldWeatherOnline's premium local weather API answer (`/premium/v1/weather.ashx?format=json`).
/// Every number arrives as a string; errors arrive with status 200 as `data.error[].msg`.
struct WorldWeatherOnlineResponse: Decodable {
    var data: Payload

    struct Payload: Decodable {
        var error: [Message]?
        var current_condition: [CurrentCondition]?
        var weather: [Day]?
    }

    struct Message: Decodable {
        var msg: String
    }

    struct Text: Decodable {
        var value: String
    }

    struct CurrentCondition: Decodable {
        var observation_time: String
        var localObsDateTime: String?
        var temp_C: String
        var weatherCode: String
        var weatherDesc: [Text]
        var windspeedKmph: String
        var winddirDegree: String
        var humidity: String
        var visibility: String
        var pressure: String
    }

    struct Day: Decodable {
        var date: String
        var astronomy: [Astronomy]
        var maxtempC: String
        var mintempC: String
        var hourly: [Hour]
    }

    struct Astronomy: Decodable {
        var sunrise: String
        var sunset: String
    }

    struct Hour: Decodable {
        /// `0`, `100` ... `2300`: local hours times 100.
        var time: String
        var tempC: String
        var weatherCode: String
        var weatherDesc: [Text]
        var windspeedKmph: String
        var winddirDegree: String
        var WindGustKmph: String?
        var precipMM: String
        var humidity: String
        var visibility: String
        var pressure: String
        var DewPointC: String
    }
}
