import Shared

/// The OpenAPI document served at `/openapi.yaml`. A test validates it and calls every operation in it
/// against the router, so a documented route that does not exist fails the suite.
enum WeatherOpenAPI {
    static let yaml = """
        openapi: 3.0.3
        info:
          title: weather-fetcher
          version: 1.0.0
          description: |
            Cities (GeoNames, CC BY 4.0), their weather from Open-Meteo or WorldWeatherOnline, the user's recent and
            favourite cities, the map, and share texts. Errors are `{"error": {"code", "message"}}` with a stable code.
            Requirement ids W1-W10 refer to the platform's requirements catalogue.
        paths:
          /v1/cities:
            get:
              summary: Search cities by name (W1)
              description: Case- and accent-insensitive; a prefix, or a pattern with `*` and `?`; alphabetical.
              parameters:
                - {name: q, in: query, required: true, schema: {type: string, minLength: 1, maxLength: 100}}
                - {name: match, in: query, schema: {type: string, enum: [prefix, contains], default: prefix}}
                - {name: page, in: query, schema: {type: integer, minimum: 1, maximum: 10000, default: 1}}
                - {name: pageSize, in: query, schema: {type: integer, minimum: 1, maximum: 100, default: 20}}
              responses:
                '200': {description: One page of cities, content: {application/json: {schema: {$ref: '#/components/schemas/CityPage'}}}}
                '400': {$ref: '#/components/responses/Error'}
          /v1/cities/nearest:
            get:
              summary: The nearest city to a coordinate (W2)
              parameters:
                - {name: lat, in: query, required: true, schema: {type: number, minimum: -90, maximum: 90}}
                - {name: lon, in: query, required: true, schema: {type: number, minimum: -180, maximum: 180}}
              responses:
                '200':
                  description: The nearest city and its great-circle distance
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          city: {$ref: '#/components/schemas/City'}
                          distanceKm: {type: number}
                '400': {$ref: '#/components/responses/Error'}
          /v1/cities/{cityId}:
            parameters:
              - {$ref: '#/components/parameters/CityId'}
            get:
              summary: One city
              responses:
                '200': {description: The city, content: {application/json: {schema: {$ref: '#/components/schemas/City'}}}}
                '400': {$ref: '#/components/responses/Error'}
                '404': {$ref: '#/components/responses/Error'}
          /v1/cities/{cityId}/weather:
            parameters:
              - {$ref: '#/components/parameters/CityId'}
            get:
              summary: Current conditions, right-now details, hours to local midnight, five days (W3-W5)
              description: |
                With an access token the view is added to the user's recent cities (W7). Data older than the refresh
                interval is refreshed on demand; when the provider fails, the last known data comes back with
                `stale: true`.
              security: [{}, {bearer: []}]
              responses:
                '200': {description: The city's weather, content: {application/json: {schema: {$ref: '#/components/schemas/CityWeather'}}}}
                '400': {$ref: '#/components/responses/Error'}
                '401': {$ref: '#/components/responses/Error'}
                '404': {$ref: '#/components/responses/Error'}
                '503': {$ref: '#/components/responses/Error'}
          /v1/cities/{cityId}/share:
            parameters:
              - {$ref: '#/components/parameters/CityId'}
            get:
              summary: Share texts in the seed's templates (W10)
              parameters:
                - {name: kind, in: query, schema: {type: string, enum: [app, home, forecast, warning], default: home}}
                - {name: day, in: query, description: Forecast day (0 is today), schema: {type: integer, minimum: 0, maximum: 4, default: 0}}
              responses:
                '200':
                  description: The text to share
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          kind: {type: string}
                          text: {type: string}
                '400': {$ref: '#/components/responses/Error'}
                '404': {$ref: '#/components/responses/Error'}
                '503': {$ref: '#/components/responses/Error'}
          /v1/map:
            get:
              summary: Cities with data inside a box, temperature and warning flag (W9)
              parameters:
                - {name: south, in: query, schema: {type: number, minimum: -90, maximum: 90, default: -90}}
                - {name: west, in: query, schema: {type: number, minimum: -180, maximum: 180, default: -180}}
                - {name: north, in: query, schema: {type: number, minimum: -90, maximum: 90, default: 90}}
                - {name: east, in: query, description: West greater than east crosses the antimeridian, schema: {type: number, minimum: -180, maximum: 180, default: 180}}
              responses:
                '200':
                  description: The cities, biggest first
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          truncated: {type: boolean}
                          cities:
                            type: array
                            items:
                              type: object
                              properties:
                                id: {type: integer}
                                name: {type: string}
                                countryCode: {type: string}
                                latitude: {type: number}
                                longitude: {type: number}
                                temperatureC: {type: number}
                                temperature: {type: string, example: 12°C}
                                hasActiveWarning: {type: boolean}
                                updatedAt: {type: string, format: date-time}
                '400': {$ref: '#/components/responses/Error'}
          /v1/me/recent-cities:
            get:
              summary: The user's 10 most recently viewed cities, newest first (W7)
              security: [{bearer: []}]
              responses:
                '200':
                  description: Recent cities
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          cities:
                            type: array
                            items:
                              type: object
                              properties:
                                city: {$ref: '#/components/schemas/City'}
                                viewedAt: {type: string, format: date-time}
                '401': {$ref: '#/components/responses/Error'}
          /v1/me/favourites:
            get:
              summary: The user's favourite cities (W8)
              security: [{bearer: []}]
              responses:
                '200':
                  description: Favourites, in the order they were marked
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          cities: {type: array, items: {$ref: '#/components/schemas/City'}}
                '401': {$ref: '#/components/responses/Error'}
          /v1/me/favourites/{cityId}:
            parameters:
              - {$ref: '#/components/parameters/CityId'}
            put:
              summary: Mark a favourite (idempotent) (W8)
              security: [{bearer: []}]
              responses:
                '200': {$ref: '#/components/responses/FavouriteChange'}
                '400': {$ref: '#/components/responses/Error'}
                '401': {$ref: '#/components/responses/Error'}
                '404': {$ref: '#/components/responses/Error'}
            delete:
              summary: Unmark a favourite (idempotent) (W8)
              security: [{bearer: []}]
              responses:
                '200': {$ref: '#/components/responses/FavouriteChange'}
                '400': {$ref: '#/components/responses/Error'}
                '401': {$ref: '#/components/responses/Error'}
                '404': {$ref: '#/components/responses/Error'}
        components:
          securitySchemes:
            bearer: {type: http, scheme: bearer, bearerFormat: JWT}
          parameters:
            CityId: {name: cityId, in: path, required: true, description: GeoNames id, schema: {type: integer, minimum: 1}}
          responses:
            \(OpenAPIFragments.errorResponse(indent: 4))
            FavouriteChange:
              description: The city's favourite state after the change
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      cityId: {type: integer}
                      isFavourite: {type: boolean}
          schemas:
            City:
              type: object
              properties:
                id: {type: integer}
                name: {type: string}
                region: {type: string}
                country: {type: string}
                countryCode: {type: string}
                latitude: {type: number}
                longitude: {type: number}
                timeZone: {type: string}
                population: {type: integer}
            CityPage:
              type: object
              properties:
                cities: {type: array, items: {$ref: '#/components/schemas/City'}}
                page: {type: integer}
                pageSize: {type: integer}
                hasMore: {type: boolean}
            CityWeather:
              type: object
              properties:
                city: {$ref: '#/components/schemas/City'}
                provider: {type: string}
                updatedAt: {type: string, format: date-time}
                updatedMinutesAgo: {type: integer}
                updated: {type: string, example: updated 5 minutes ago}
                stale: {type: boolean}
                staleReason: {type: string, nullable: true}
                current:
                  type: object
                  properties:
                    condition: {type: string, enum: [clear, partly-cloudy, cloudy, fog, drizzle, rain, heavy-rain, freezing-rain, sleet, snow, showers, thunderstorm]}
                    description: {type: string}
                    temperatureC: {type: number}
                    temperature: {type: string, example: 12°C}
                rightNow:
                  type: object
                  properties:
                    pressureMb: {type: number}
                    pressure: {type: string, example: 1015 mb}
                    windSpeedKmh: {type: number}
                    windSpeed: {type: string, example: 11 km/h}
                    windDirection: {type: string, example: SW}
                    windDirectionDegrees: {type: number}
                    dewPointC: {type: number}
                    dewPoint: {type: string}
                    humidityPercent: {type: number}
                    humidity: {type: string, example: 71%}
                    sunrise: {type: string, example: 07:12 AM}
                    sunset: {type: string, example: 04:05 PM}
                    visibilityMiles: {type: number}
                    visibility: {type: string, example: 6.2 mi}
                hourly:
                  type: array
                  items:
                    type: object
                    properties:
                      time: {type: string, format: date-time}
                      hour: {type: string, example: 4 PM}
                      temperatureC: {type: number}
                      temperature: {type: string}
                      condition: {type: string}
                      description: {type: string}
                daily:
                  type: array
                  items:
                    type: object
                    properties:
                      date: {type: string, format: date}
                      day: {type: string, example: Monday}
                      maxTemperatureC: {type: number}
                      minTemperatureC: {type: number}
                      maxTemperature: {type: string}
                      minTemperature: {type: string}
                      condition: {type: string}
                      description: {type: string}
                hasActiveWarning: {type: boolean}
                warnings:
                  type: array
                  items:
                    type: object
                    properties:
                      announcementNumber: {type: string}
                      severity: {type: string}
                      status: {type: string}
                      statusDescription: {type: string}
                      start: {type: string, format: date-time}
                      end: {type: string, format: date-time}
                isFavourite: {type: boolean, description: Only with an access token}

        """
}
