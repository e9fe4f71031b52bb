// The pure helpers (tokens, repository files, secrets, `eventually`, `freePort`) live in UnitTestSupport, which
// the unit targets use without the infrastructure; every user of TestSupport sees them as before.
@_exported import UnitTestSupport
