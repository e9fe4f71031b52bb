extension AuthOpenAPI {
    /// Shared schemas, responses and the bearer scheme.
    static let components = #"""
components:
  securitySchemes:
    bearer:
      type: http
      scheme: bearer
      bearerFormat: JWT (EdDSA)
  schemas:
    Error:
      type: object
      required: [error]
      properties:
        error:
          type: object
          required: [code, message]
          properties:
            code: {type: string, examples: [wrong_password]}
            message: {type: string}
            details:
              type: object
              additionalProperties: {type: string}
              description: attemptsLeft and next (retry, sign_up, forgot_pin, login) where a flow needs them
    Account:
      type: object
      required: [id, kind, role, entitlements, banned]
      properties:
        id: {type: string, format: uuid}
        email: {type: [string, "null"]}
        kind: {type: string, enum: [dashboard, survey, horoscope]}
        role: {type: string, enum: [guest, user, partner, admin]}
        displayName: {type: [string, "null"]}
        entitlements: {type: array, items: {type: string}}
        banned: {type: boolean}
    Session:
      type: object
      required: [accessToken, refreshToken, tokenType, expiresIn, account]
      properties:
        accessToken: {type: string}
        refreshToken: {type: string}
        tokenType: {type: string, const: Bearer}
        expiresIn: {type: integer, description: seconds}
        account: {$ref: '#/components/schemas/Account'}
        next: {type: string}
    Message:
      type: object
      required: [message]
      properties:
        message: {type: string}
        next: {type: string}
        email: {type: string}
    Credentials:
      type: object
      properties:
        email: {type: string}
        password: {type: string}
    RefreshToken:
      type: object
      properties:
        refreshToken: {type: string}
  responses:
    Error:
      description: a JSON error
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    Session:
      description: a new session
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Session'}
    Message:
      description: a message
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Message'}
"""#
}
