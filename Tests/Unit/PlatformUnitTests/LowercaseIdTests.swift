import Foundation
import PlatformCore
import PlatformEvents
import Testing

@Suite("Ids in events: one spelling")
struct LowercaseIdTests {
    @Test("U8, X2: every id in an event payload is written in lower case, as tokens' sub spell it; upper case still reads")
    func payloadIdsLowerCase() throws {
        let user = UUID()
        let into = UUID()
        let event = EventEnvelope(
            type: EventTypes.userMerged, producer: "auth", key: AccountKey.of(into), payload: UserMerged(fromUserId: user, intoUserId: into))
        let text = String(decoding: try event.encoded(), as: UTF8.self)
        #expect(text.contains(user.uuidString.lowercased()) && text.contains(into.uuidString.lowercased()))
        #expect(!text.contains(user.uuidString) && !text.contains(into.uuidString), "no upper-case spelling: \(text)")
        let received = try ReceivedEvent(bytes: try event.encoded())
        #expect(try received.payload(as: UserMerged.self) == UserMerged(fromUserId: user, intoUserId: into))
        let written = Data(#"{"userId":"\#(user.uuidString)","kind":"survey","role":"user"}"#.utf8)
        #expect(try EventCoding.decoder.decode(UserRegistered.self, from: written).userId == user, "an event written before decodes")
    }
}
