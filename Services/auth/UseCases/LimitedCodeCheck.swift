import Foundation

/// The tries a mailed code's check takes before the code is compared (U4, email confirmation): one against the
/// caller's address, one against everyone's hourly budget, one against the account's tries of its flow. Parallel
/// guesses then get no more comparisons than the limits.
package struct LimitedCodeCheck: Sendable {
    package let tries: TryLedger
    /// Failed requests of any kind per client address.
    package let address: AttemptLimit
    /// Code checks of every account from every address together.
    package let budget: AttemptLimit

    package init(tries: TryLedger, address: AttemptLimit, budget: AttemptLimit) {
        self.tries = tries
        self.address = address
        self.budget = budget
    }

    /// The three tries taken; each counts as a failure until given back.
    package struct Taken: Sendable {
        package let address: AttemptTry
        package let budget: AttemptTry
        package let code: AttemptTry

        package init(address: AttemptTry, budget: AttemptTry, code: AttemptTry) {
            self.address = address
            self.budget = budget
            self.code = code
        }

        /// The code was right: the caller's address and the budget did not fail, whatever a later step says.
        package func releaseAddressAndBudget(_ tries: TryLedger) async throws {
            try await tries.release(address, budget)
        }
    }

    /// The account's tries of the flow are used up; the address's and the budget's were given back.
    package struct UsedUp: Error, Equatable {}

    /// Takes the three tries for a check of `kind` on `account`; `TryLedger.Exhausted` when the address or the
    /// budget has none left.
    package func take(_ kind: AttemptKind, account: UUID, limit: AttemptLimit, clientKey: String) async throws -> Taken {
        let addressTry = try await tries.take(.address, subject: clientKey, limit: address)
        let budgetTry = try await tries.givingBack([addressTry]) {
            try await tries.take(.codeCheck, subject: "all", limit: budget)
        }
        guard case .taken(let codeTry) = try await tries.attempts.reserve(kind, subject: account.uuidString, limit: limit) else {
            try await tries.release(addressTry, budgetTry)
            throw UsedUp()
        }
        return Taken(address: addressTry, budget: budgetTry, code: codeTry)
    }
}
