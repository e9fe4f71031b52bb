import Foundation
import PlatformCore
import PlatformHTTP
import Testing

@testable import AppointmentBooker

/// What a reading's share page shows of its text, and the setting that names the pages' address (B4).
@Suite("appointment-booker: share page texts")
struct SharePageTextTests {
    @Test("B4: share pages mask long digit runs and escape HTML; the setting must be an http(s) URL")
    func maskingAndSetting() throws {
        #expect(ShareMasking.maskingNumbers("call 081-234-5678 now") == "call •••-•••-••78 now")
        #expect(ShareMasking.maskingNumbers("on 2027-01-05, card 12") == "on 2027-01-05, card 12", "dates and small numbers stay")
        #expect(SharePageHTML.escape(#"<b>"Tom" & 'Ann'</b>"#) == "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Ann&#39;&lt;/b&gt;")
        #expect(try EnvironmentReader.publicBaseURL("https://a.example/x/") == "https://a.example/x")
        for bad in ["ftp://a.example", "a.example", "https://a.example/?q=1", "https://"] {
            #expect(throws: ConfigError.self, "\(bad)") { try EnvironmentReader.publicBaseURL(bad) }
        }
    }
}
