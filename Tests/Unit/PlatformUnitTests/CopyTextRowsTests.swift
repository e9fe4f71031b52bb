import NIOCore
import PlatformPostgres
import Testing

/// The text format of COPY FROM STDIN (X1): the characters that would end a column or a row, and the escape
/// character itself, are escaped; NULL is `\N`; everything else, UTF-8 included, goes as it is.
@Suite("COPY text rows")
struct CopyTextRowsTests {
    @Test("tabs, newlines, carriage returns and backslashes are escaped; nil is \\N; UTF-8 passes through")
    func escaping() {
        var rows = CopyTextRows()
        rows.append(["1", "München", nil])
        rows.append(["2", "a\tb\nc\rd\\e", ""])
        #expect(String(buffer: rows.buffer) == "1\tMünchen\t\\N\n2\ta\\tb\\nc\\rd\\\\e\t\n" && rows.count == 2)
    }
}
