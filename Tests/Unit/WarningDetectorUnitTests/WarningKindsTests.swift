import Foundation
import Testing

@testable import WarningDetector

/// Kinds and severities are the rules' closed sets inside the service and strings only at its edges (A1, A2): the
/// stored and published words are the ones the rules name, read back as the same values.
@Suite("warning-detector: warning kinds and severities at the edges")
struct WarningKindsTests {
    static func row(kind: String, severity: String) -> WarningStore.Row {
        (
            UUID(), 2_950_159, kind, "2026-000001", "Berlin", "Land Berlin, Germany", 52.52, 13.41, "Europe/Berlin", severity,
            "\(severity) heat warning", "Temperatures up to 36 °C expected.", Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 3_600)
        )
    }

    @Test("A1: every severity reads back from the word it is stored and published as; other words are none")
    func severityWords() {
        for severity in Severity.allCases { #expect(Severity(capName: severity.capName) == severity) }
        #expect(Severity(capName: "severe") == nil && Severity(capName: "") == nil)
    }

    @Test("A2: a stored row's kind and severity words become the rules' values, and the notice says them again")
    func storedWordsRoundTrip() {
        for kind in WarningRule.Kind.allCases {
            for severity in Severity.allCases {
                let warning = WarningStore.decode(Self.row(kind: kind.rawValue, severity: severity.capName))
                #expect(warning.kind == kind && warning.severity == severity)
                #expect(warning.notice.kind == kind && warning.notice.severity.rawValue == severity.capName)
            }
        }
    }

    @Test("A5: a Thai reader gets every kind and severity in Thai words")
    func thaiWordsForEveryKind() {
        #expect(WarningWording.thaiStatus(kind: .heavyRain, severity: .severe) == "เตือนภัยฝนตกหนัก ระดับรุนแรง")
        #expect(WarningWording.thaiDescription(kind: .heavyRain, english: "Rain up to 32 mm per hour.") == "คาดว่าฝนตกหนักถึง 32 มม. ต่อชั่วโมง")
        let statuses = Set(WarningRule.Kind.allCases.map { WarningWording.thaiStatus(kind: $0, severity: .moderate) })
        #expect(statuses.count == WarningRule.Kind.allCases.count)
        #expect(WarningWording.thaiDescription(kind: .heat, english: "Very hot.") == nil)
    }

    /// A kind the document lacks would be shown as another (a daily horoscope's push was logged as a warning).
    @Test("X3: the delivery log's statuses and kinds are exactly the document's")
    func deliveryClosedSets() {
        #expect(Set(Components.Schemas.Delivery.StatusPayload.allCases.map(\.rawValue)) == Set(DeliveryStatus.allCases.map(\.rawValue)))
        #expect(Set(Components.Schemas.Delivery.KindPayload.allCases.map(\.rawValue)) == Set(DeliveryKind.allCases.map(\.rawValue)))
    }
}
