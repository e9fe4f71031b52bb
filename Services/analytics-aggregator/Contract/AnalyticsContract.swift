// The types and the client swift-openapi-generator writes from this service's openapi.yaml (the symlink beside
// this file is the service's own document, not a copy): one set of types for the server and the apps' clients.
