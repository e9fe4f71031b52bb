extension AuthOpenAPI {
    /// Every operation of the API.
    static let paths = #"""
paths:
  /v1/dashboard/login:
    post:
      summary: Dashboard login (U1)
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Credentials'}
      responses:
        '200': {$ref: '#/components/responses/Session'}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '403': {$ref: '#/components/responses/Error'}
        '429': {$ref: '#/components/responses/Error'}
  /v1/dashboard/password/change:
    post:
      summary: Change password (U3)
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                currentPassword: {type: string}
                newPassword: {type: string}
                confirmation: {type: string}
      responses:
        '200': {$ref: '#/components/responses/Session'}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
  /v1/dashboard/password/forgot:
    post:
      summary: Mail a reset link (U2)
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                email: {type: string}
      responses:
        '202': {$ref: '#/components/responses/Message'}
        '400': {$ref: '#/components/responses/Error'}
  /v1/dashboard/password/reset:
    get:
      summary: Check a reset link
      parameters:
        - {name: token, in: query, required: true, schema: {type: string}}
      responses:
        '200': {$ref: '#/components/responses/Message'}
        '410': {$ref: '#/components/responses/Error'}
    post:
      summary: Reset the password with a link (U2)
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                token: {type: string}
                newPassword: {type: string}
                confirmation: {type: string}
      responses:
        '200': {$ref: '#/components/responses/Message'}
        '400': {$ref: '#/components/responses/Error'}
        '410': {$ref: '#/components/responses/Error'}
  /v1/sessions/refresh:
    post:
      summary: Rotate a refresh token (U7)
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/RefreshToken'}
      responses:
        '200': {$ref: '#/components/responses/Session'}
        '401': {$ref: '#/components/responses/Error'}
  /v1/sessions/logout:
    post:
      summary: End a session (U1)
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/RefreshToken'}
      responses:
        '200': {$ref: '#/components/responses/Message'}
        '401': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /v1/survey/signup:
    post:
      summary: Hotel-survey sign-up (U4)
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                email: {type: string}
                pin: {type: string}
                pinConfirmation: {type: string}
      responses:
        '201': {$ref: '#/components/responses/Message'}
        '400': {$ref: '#/components/responses/Error'}
        '409': {$ref: '#/components/responses/Error'}
  /v1/survey/login:
    post:
      summary: Hotel-survey login with a PIN (U4)
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                email: {type: string}
                pin: {type: string}
      responses:
        '200': {$ref: '#/components/responses/Session'}
        '401': {$ref: '#/components/responses/Error'}
        '403': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /v1/survey/forgot-pin/start:
    post:
      summary: Mail a PIN reset code (U4)
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                email: {type: string}
      responses:
        '202': {$ref: '#/components/responses/Message'}
        '404': {$ref: '#/components/responses/Error'}
  /v1/survey/forgot-pin:
    post:
      summary: Set a new PIN with the mailed code (U4)
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                email: {type: string}
                code: {type: string}
                pin: {type: string}
                pinConfirmation: {type: string}
      responses:
        '200': {$ref: '#/components/responses/Message'}
        '400': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /v1/horoscope/guest:
    post:
      summary: A guest session (U5)
      responses:
        '200': {$ref: '#/components/responses/Session'}
  /v1/horoscope/oidc:
    post:
      summary: Log in with an OpenID Connect ID token (U5)
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                idToken: {type: string}
      responses:
        '200': {$ref: '#/components/responses/Session'}
        '401': {$ref: '#/components/responses/Error'}
        '503': {$ref: '#/components/responses/Error'}
  /v1/admin/users:
    get:
      summary: Search accounts (admin)
      security: [{bearer: []}]
      parameters:
        - {name: query, in: query, schema: {type: string, maxLength: 100}}
        - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 100, default: 50}}
        - {name: offset, in: query, schema: {type: integer, minimum: 0, default: 0}}
      responses:
        '200':
          description: accounts
          content:
            application/json:
              schema:
                type: object
                properties:
                  accounts: {type: array, items: {$ref: '#/components/schemas/Account'}}
                  limit: {type: integer}
                  offset: {type: integer}
        '400': {$ref: '#/components/responses/Error'}
        '403': {$ref: '#/components/responses/Error'}
  /v1/admin/users/{id}:
    patch:
      summary: Edit, ban or change the role of an account (admin)
      security: [{bearer: []}]
      parameters:
        - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                displayName: {type: string}
                role: {type: string, enum: [guest, user, partner, admin]}
                banned: {type: boolean}
      responses:
        '200': {$ref: '#/components/responses/Message'}
        '400': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /v1/admin/users/{id}/entitlements:
    post:
      summary: Grant an entitlement (admin, U6)
      security: [{bearer: []}]
      parameters:
        - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [entitlement]
              properties:
                entitlement: {type: string, enum: [tarot, fortune_stick, compatibility, phone_number, contact_fortune_teller]}
      responses:
        '200': {$ref: '#/components/responses/Message'}
        '400': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /v1/admin/users/{id}/payments:
    get:
      summary: Payment status of an account (admin, U6)
      security: [{bearer: []}]
      parameters:
        - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
      responses:
        '200':
          description: payments, newest first, and the entitlements currently paid for
          content:
            application/json:
              schema:
                type: object
                properties:
                  payments: {type: array, items: {type: object}}
                  paidEntitlements: {type: array, items: {type: string}}
  /v1/payments/webhook:
    post:
      summary: Payment provider notification, signed with HMAC-SHA256 in X-Signature (U6)
      parameters:
        - {name: X-Signature, in: header, required: true, schema: {type: string, pattern: '^sha256=[0-9a-f]{64}$'}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [paymentId, userId, entitlement, status, amountCents]
              properties:
                paymentId: {type: string}
                userId: {type: string, format: uuid}
                entitlement: {type: string}
                status: {type: string, enum: [paid, refunded]}
                amountCents: {type: integer, minimum: 0}
      responses:
        '200': {$ref: '#/components/responses/Message'}
        '401': {$ref: '#/components/responses/Error'}
        '503': {$ref: '#/components/responses/Error'}
  /.well-known/jwks.json:
    get:
      summary: The public key that verifies access tokens
      responses:
        '200':
          description: a JWKS
          content:
            application/json:
              schema: {type: object}
  /openapi.yaml:
    get:
      summary: This document
      responses:
        '200':
          description: OpenAPI 3.1 YAML
"""#
}
