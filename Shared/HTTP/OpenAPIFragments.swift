/// YAML that every service's OpenAPI document repeats, written once so the documents cannot drift apart.
public enum OpenAPIFragments {
    /// `components.responses.Error`, the body `APIError` writes. Interpolate it on the line where `Error:`
    /// belongs; `indent` is that line's indentation in the document, given to the lines after the first.
    public static func errorResponse(indent: Int) -> String {
        errorResponseLines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }

    private static let errorResponseLines = """
        Error:
          description: An error with a stable code
          content:
            application/json:
              schema:
                type: object
                required: [error]
                properties:
                  error:
                    type: object
                    required: [code, message]
                    properties:
                      code: {type: string}
                      message: {type: string}
                      details: {type: object, additionalProperties: {type: string}}
        """.split(separator: "\n")
}
