/// Shared secrets the services require (none has a public default), for the services the tests start.
public enum TestSecrets {
    /// appointment-booker's `READING_KEY` (32 characters or more).
    public static let readingKey = "test-reading-key-0123456789abcdef0123456789"
    /// Every service's `ERASED_ACCOUNTS_KEY` (32 characters or more).
    public static let erasedAccountsKey = "test-erased-accounts-key-0123456789abcdef"
}
