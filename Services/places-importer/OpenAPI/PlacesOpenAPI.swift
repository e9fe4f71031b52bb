import Shared

/// The OpenAPI document served at `/openapi.yaml`. A test validates it and calls every operation in it
/// against the router, so a documented route that does not exist fails the suite.
enum PlacesOpenAPI {
    static let yaml = """
        openapi: 3.0.3
        info:
          title: places-importer
          version: 1.0.0
          description: |
            Workplaces imported from OpenStreetMap (Overpass) and Yelp, with users' ratings, pins and their own places.
            Every route needs an access token. Errors are `{"error": {"code", "message", "details"}}`; a 422
            `validation_failed` names each bad field in `details`. Requirement ids P1-P4 refer to the requirements catalogue.
        security: [{bearer: []}]
        paths:
          /v1/places:
            get:
              summary: Places near a point (nearest first) or in a box (by name), with the user's pin (P2)
              parameters:
                - {name: lat, in: query, schema: {type: number, minimum: -90, maximum: 90}}
                - {name: lon, in: query, schema: {type: number, minimum: -180, maximum: 180}}
                - {name: radius, in: query, description: metres, schema: {type: integer, minimum: 1, maximum: 50000, default: 1000}}
                - {name: south, in: query, schema: {type: number}}
                - {name: west, in: query, schema: {type: number}}
                - {name: north, in: query, schema: {type: number}}
                - {name: east, in: query, schema: {type: number}}
                - {name: page, in: query, schema: {type: integer, minimum: 1, default: 1}}
                - {name: pageSize, in: query, schema: {type: integer, minimum: 1, maximum: 100, default: 50}}
              responses:
                '200':
                  description: One page of places
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          places: {type: array, items: {$ref: '#/components/schemas/Place'}}
                          page: {type: integer}
                          pageSize: {type: integer}
                          hasMore: {type: boolean}
                '400': {$ref: '#/components/responses/Error'}
                '401': {$ref: '#/components/responses/Error'}
            post:
              summary: Add a place by coordinates, or by address looked up in Nominatim (P4)
              description: With an optional rating and pin colour. Nothing is stored unless every field is valid.
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      type: object
                      required: [name]
                      properties:
                        name: {type: string, maxLength: 200}
                        address: {type: string}
                        latitude: {type: number}
                        longitude: {type: number}
                        category: {type: string, enum: [coworking, cafe, library, bar, other]}
                        rating: {$ref: '#/components/schemas/Rating'}
                        pinColour: {type: string, enum: [green, purple, orange, yellow, black]}
              responses:
                '201': {description: The new place, content: {application/json: {schema: {$ref: '#/components/schemas/Place'}}}}
                '400': {$ref: '#/components/responses/Error'}
                '401': {$ref: '#/components/responses/Error'}
                '422': {$ref: '#/components/responses/Error'}
                '503': {$ref: '#/components/responses/Error'}
          /v1/places/{placeId}:
            parameters: [{$ref: '#/components/parameters/PlaceId'}]
            get:
              summary: A place with the aggregate of all users' ratings and the user's own (P3)
              responses:
                '200':
                  description: The place
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          place: {$ref: '#/components/schemas/Place'}
                          ratings: {$ref: '#/components/schemas/Aggregate'}
                          myRating: {$ref: '#/components/schemas/Rating'}
                '400': {$ref: '#/components/responses/Error'}
                '404': {$ref: '#/components/responses/Error'}
          /v1/places/{placeId}/rating:
            parameters: [{$ref: '#/components/parameters/PlaceId'}]
            put:
              summary: Rate a place; re-rating replaces the user's earlier rating (P3)
              requestBody:
                required: true
                content: {application/json: {schema: {$ref: '#/components/schemas/Rating'}}}
              responses:
                '200':
                  description: The rating and the new aggregate
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          placeId: {type: string, format: uuid}
                          rating: {$ref: '#/components/schemas/Rating'}
                          ratings: {$ref: '#/components/schemas/Aggregate'}
                '400': {$ref: '#/components/responses/Error'}
                '404': {$ref: '#/components/responses/Error'}
                '422': {$ref: '#/components/responses/Error'}
          /v1/places/{placeId}/pin:
            parameters: [{$ref: '#/components/parameters/PlaceId'}]
            put:
              summary: Choose the place's pin colour from the predefined list (P2)
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      type: object
                      properties:
                        colour: {type: string, enum: [green, purple, orange, yellow, black]}
              responses:
                '200': {$ref: '#/components/responses/Pin'}
                '404': {$ref: '#/components/responses/Error'}
                '422': {$ref: '#/components/responses/Error'}
            delete:
              summary: Back to the system's red/blue pin
              responses:
                '200': {$ref: '#/components/responses/Pin'}
                '404': {$ref: '#/components/responses/Error'}
          /v1/places/{placeId}/saved:
            parameters: [{$ref: '#/components/parameters/PlaceId'}]
            put:
              summary: Save the place (its pin turns blue)
              responses:
                '200': {$ref: '#/components/responses/Pin'}
                '404': {$ref: '#/components/responses/Error'}
            delete:
              summary: Unsave the place
              responses:
                '200': {$ref: '#/components/responses/Pin'}
                '404': {$ref: '#/components/responses/Error'}
          /v1/admin/import-areas:
            get:
              summary: Import areas with their schedule and last run's progress (admin) (P1)
              responses:
                '200': {$ref: '#/components/responses/Areas'}
                '403': {$ref: '#/components/responses/Error'}
            post:
              summary: Add (or move) an area; it is imported at once (admin) (P1)
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      type: object
                      required: [name, south, west, north, east]
                      properties:
                        name: {type: string}
                        south: {type: number}
                        west: {type: number}
                        north: {type: number}
                        east: {type: number}
              responses:
                '200': {$ref: '#/components/responses/Areas'}
                '403': {$ref: '#/components/responses/Error'}
                '422': {$ref: '#/components/responses/Error'}
          /v1/admin/import-areas/{areaId}/run:
            parameters:
              - {name: areaId, in: path, required: true, schema: {type: string, format: uuid}}
            post:
              summary: Import an area now (admin)
              responses:
                '200': {$ref: '#/components/responses/Areas'}
                '404': {$ref: '#/components/responses/Error'}
        components:
          securitySchemes:
            bearer: {type: http, scheme: bearer, bearerFormat: JWT}
          parameters:
            PlaceId: {name: placeId, in: path, required: true, schema: {type: string, format: uuid}}
          responses:
            \(OpenAPIFragments.errorResponse(indent: 4))
            Pin:
              description: The user's pin for the place
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      placeId: {type: string, format: uuid}
                      pin: {type: string, description: 'red, blue, or the chosen colour'}
            Areas:
              description: Every import area
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      areas:
                        type: array
                        items:
                          type: object
                          properties:
                            id: {type: string, format: uuid}
                            name: {type: string}
                            south: {type: number}
                            west: {type: number}
                            north: {type: number}
                            east: {type: number}
                            nextRunAt: {type: string, format: date-time}
                            lastStartedAt: {type: string, format: date-time}
                            lastFinishedAt: {type: string, format: date-time}
                            lastStatus: {type: string, enum: [running, succeeded, failed]}
                            lastError: {type: string}
                            created: {type: integer}
                            changed: {type: integer}
                            unchanged: {type: integer}
                            tilesDone: {type: integer}
                            tilesTotal: {type: integer}
          schemas:
            Place:
              type: object
              properties:
                id: {type: string, format: uuid}
                name: {type: string}
                category: {type: string, enum: [coworking, cafe, library, bar, other]}
                latitude: {type: number}
                longitude: {type: number}
                address: {type: string}
                openingHours: {type: string}
                phone: {type: string}
                website: {type: string}
                internetAccess: {type: string}
                userAdded: {type: boolean}
                pin: {type: string}
                distanceMetres: {type: number}
            Rating:
              type: object
              required: [noise, outlets, wifi, cost, seating, businessType]
              properties:
                noise: {type: integer, minimum: 0, maximum: 5}
                outlets: {type: integer, minimum: 0, maximum: 5}
                wifi: {type: integer, minimum: 0, maximum: 5}
                cost: {type: integer, minimum: 0, maximum: 5}
                seating: {type: integer, minimum: 0, maximum: 5}
                menuOptions: {type: array, items: {type: string, enum: [drinks-only, light-snacks, lunch, full-menu]}}
                businessType: {type: string, enum: [coworking, coffee-shop, library, bar, restaurant, other]}
                notes: {type: string, maxLength: 1000}
            Aggregate:
              type: object
              properties:
                count: {type: integer}
                averages: {type: object, additionalProperties: {type: number}}
                menuOptions: {type: object, additionalProperties: {type: integer}}
                businessTypes: {type: object, additionalProperties: {type: integer}}

        """
}
