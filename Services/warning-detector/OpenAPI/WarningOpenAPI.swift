import Shared

/// The OpenAPI document served at `/openapi.yaml`. A test validates it and calls every operation in it
/// against the router, so a documented route that does not exist fails the suite.
enum WarningOpenAPI {
    static let yaml = """
        openapi: 3.0.3
        info:
          title: warning-detector
          version: 1.0.0
          description: |
            Weather warnings derived from forecasts by threshold rules, notification settings and devices for push
            notifications, and weather news. Errors are `{"error": {"code", "message", "details"}}`; a 422
            `validation_failed` names each bad field in `details`. Requirement ids A1-A6 refer to the requirements catalogue.
        paths:
          /v1/cities/{cityId}/warnings:
            get:
              summary: The city's active warnings, dates also as `01:00 AM, Monday, 15/10/2015` in its time zone (A1-A3)
              security: []
              parameters:
                - {name: cityId, in: path, required: true, schema: {type: integer, minimum: 1}}
              responses:
                '200': {$ref: '#/components/responses/Warnings'}
                '400': {$ref: '#/components/responses/Error'}
          /v1/warnings:
            get:
              summary: Active warnings of the cities in a box, for the map (A2)
              security: []
              parameters:
                - {name: south, in: query, required: true, schema: {type: number, minimum: -90, maximum: 90}}
                - {name: west, in: query, required: true, schema: {type: number, minimum: -180, maximum: 180}}
                - {name: north, in: query, required: true, schema: {type: number, minimum: -90, maximum: 90}}
                - {name: east, in: query, required: true, schema: {type: number, minimum: -180, maximum: 180}}
              responses:
                '200': {$ref: '#/components/responses/Warnings'}
                '400': {$ref: '#/components/responses/Error'}
          /v1/me/notification-settings:
            get:
              summary: The user's switches for the current location and each favourite, on unless switched off (A4)
              security: [{bearer: []}]
              responses:
                '200': {$ref: '#/components/responses/Settings'}
                '401': {$ref: '#/components/responses/Error'}
            put:
              summary: Switch forecasts or warnings for the current location or a favourite; what is not named keeps its value (A4)
              security: [{bearer: []}]
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      type: object
                      properties:
                        currentLocation: {$ref: '#/components/schemas/Switches'}
                        favourites:
                          type: array
                          items:
                            allOf:
                              - {$ref: '#/components/schemas/Switches'}
                              - {type: object, required: [cityId], properties: {cityId: {type: integer, minimum: 1}}}
              responses:
                '200': {$ref: '#/components/responses/Settings'}
                '400': {$ref: '#/components/responses/Error'}
                '401': {$ref: '#/components/responses/Error'}
                '422': {$ref: '#/components/responses/Error'}
          /v1/me/devices:
            get:
              summary: The user's registered devices (A5)
              security: [{bearer: []}]
              responses:
                '200':
                  description: Devices
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          devices: {type: array, items: {$ref: '#/components/schemas/Device'}}
                '401': {$ref: '#/components/responses/Error'}
          /v1/me/devices/{token}:
            parameters:
              - {name: token, in: path, required: true, description: 'the APNs device token, hexadecimal', schema: {type: string, minLength: 64, maxLength: 200}}
            put:
              summary: Register the device for push notifications with its current location (A5)
              security: [{bearer: []}]
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      type: object
                      properties:
                        currentCityId: {type: integer, minimum: 1, description: weather-fetcher's city id of the current location}
                        timeZone: {type: string, description: 'IANA zone; the daily message follows it (else the current city''s)'}
              responses:
                '200':
                  description: The device
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Device'}
                '400': {$ref: '#/components/responses/Error'}
                '401': {$ref: '#/components/responses/Error'}
                '422': {$ref: '#/components/responses/Error'}
            delete:
              summary: Unregister the device (A5)
              security: [{bearer: []}]
              responses:
                '204': {description: Removed}
                '400': {$ref: '#/components/responses/Error'}
                '401': {$ref: '#/components/responses/Error'}
                '404': {$ref: '#/components/responses/Error'}
          /v1/admin/push-deliveries:
            get:
              summary: The delivery log, newest first (admins; A5)
              security: [{bearer: []}]
              parameters:
                - {name: userId, in: query, schema: {type: string}}
                - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 1000, default: 100}}
              responses:
                '200':
                  description: Deliveries
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          deliveries:
                            type: array
                            items:
                              type: object
                              properties:
                                id: {type: string, format: uuid}
                                deviceToken: {type: string}
                                userId: {type: string}
                                kind: {type: string, enum: [warning, daily-forecast]}
                                status: {type: string, enum: [pending, sent, failed, token-removed]}
                                attempts: {type: integer}
                                lastStatus: {type: integer}
                                lastError: {type: string}
                                createdAt: {type: string, format: date-time}
                                finishedAt: {type: string, format: date-time}
                '400': {$ref: '#/components/responses/Error'}
                '401': {$ref: '#/components/responses/Error'}
                '403': {$ref: '#/components/responses/Error'}
          /v1/news:
            get:
              summary: Weather news, newest first (A6)
              security: []
              parameters:
                - {name: page, in: query, schema: {type: integer, minimum: 1, default: 1}}
                - {name: pageSize, in: query, schema: {type: integer, minimum: 1, maximum: 100, default: 20}}
              responses:
                '200':
                  description: One page of news
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          news: {type: array, items: {$ref: '#/components/schemas/News'}}
                          page: {type: integer}
                          pageSize: {type: integer}
                          hasMore: {type: boolean}
                '400': {$ref: '#/components/responses/Error'}
          /v1/news/{newsId}:
            get:
              summary: One news item (A6)
              security: []
              parameters:
                - {name: newsId, in: path, required: true, schema: {type: string, format: uuid}}
              responses:
                '200':
                  description: The item
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/News'}
                '400': {$ref: '#/components/responses/Error'}
                '404': {$ref: '#/components/responses/Error'}
          /v1/admin/news:
            post:
              summary: Publish a news item (admins; A6)
              security: [{bearer: []}]
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      type: object
                      required: [name, body, date, time, location]
                      properties:
                        name: {type: string, maxLength: 200}
                        body: {type: string, maxLength: 20000}
                        date: {type: string, example: '2026-11-23'}
                        time: {type: string, example: '14:30'}
                        location: {type: string, maxLength: 200}
                        timeZone: {type: string, default: UTC}
              responses:
                '201':
                  description: Published
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/News'}
                '400': {$ref: '#/components/responses/Error'}
                '401': {$ref: '#/components/responses/Error'}
                '403': {$ref: '#/components/responses/Error'}
                '422': {$ref: '#/components/responses/Error'}
        components:
          securitySchemes:
            bearer: {type: http, scheme: bearer, bearerFormat: JWT}
          responses:
            \(OpenAPIFragments.errorResponse(indent: 4))
            Warnings:
              description: Active warnings
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      warnings: {type: array, items: {$ref: '#/components/schemas/Warning'}}
            Settings:
              description: The user's notification settings
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      currentLocation: {$ref: '#/components/schemas/Switches'}
                      favourites:
                        type: array
                        items:
                          allOf:
                            - {$ref: '#/components/schemas/Switches'}
                            - {type: object, properties: {cityId: {type: integer}, name: {type: string}}}
          schemas:
            Switches:
              type: object
              properties:
                forecasts: {type: boolean}
                warnings: {type: boolean}
            Device:
              type: object
              properties:
                token: {type: string}
                currentCityId: {type: integer}
                timeZone: {type: string}
            Warning:
              type: object
              properties:
                id: {type: string, format: uuid}
                cityId: {type: integer}
                kind: {type: string, enum: [heat, frost, wind, storm, heavy-rain, snow, low-visibility]}
                announcementNumber: {type: string, example: 2026-000123}
                location: {type: string}
                region: {type: string}
                latitude: {type: number}
                longitude: {type: number}
                severity: {type: string, enum: [Moderate, Severe, Extreme]}
                status: {type: string, example: Severe wind warning}
                statusDescription: {type: string}
                timeZone: {type: string}
                onset: {type: string, format: date-time}
                ends: {type: string, format: date-time}
                onsetText: {type: string, example: '01:00 AM, Monday, 15/10/2015'}
                endsText: {type: string}
            News:
              type: object
              properties:
                id: {type: string, format: uuid}
                name: {type: string}
                body: {type: string}
                location: {type: string}
                happenedAt: {type: string, format: date-time}
                timeZone: {type: string}
                happenedAtText: {type: string, example: '02:30 PM, Monday, 23/11/2026'}
                publishedAt: {type: string, format: date-time}
        """
}
