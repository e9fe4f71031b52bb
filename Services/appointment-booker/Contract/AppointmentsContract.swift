// The types and the client that PublicContractGenerator writes from this service's openapi.yaml (one folder up,
// the document its server is generated from): the apps' view of the service (X6).
