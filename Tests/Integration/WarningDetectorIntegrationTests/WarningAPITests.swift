import Foundation
import ServiceTestSupport
import TestSupport
import Testing

@testable import WarningDetector

/// Settings, devices and news through the HTTP API, and bad input everywhere (A4, A6, X3).
@Suite("warning-detector: settings, devices, news, bad input")
struct WarningAPITests {
    @Test("A4: settings are all on by default, per favourite, and change only where the request says")
    func settings() async throws {
        try await WarningTestHarness.run { harness in
            let user = UUID().uuidString
            try await harness.favourite(user, WarningFixtures.berlin)
            try await harness.favourite(user, WarningFixtures.suva)
            #expect(try await harness.waitProcessed(atLeast: 2))
            let bearer = try await harness.token(user)
            var (status, body) = try await harness.request(.get, "/v1/me/notification-settings", bearer: bearer)
            #expect(status == .ok)
            #expect(body["currentLocation"]["forecasts"].bool == true && body["currentLocation"]["warnings"].bool == true)
            #expect(body["favourites"].array.map { $0["name"].string } == ["Berlin", "Suva"])
            #expect(body["favourites"].array.allSatisfy { $0["forecasts"].bool == true && $0["warnings"].bool == true })
            (status, body) = try await harness.request(
                .put, "/v1/me/notification-settings",
                json: ["currentLocation": ["forecasts": false], "favourites": [["cityId": WarningFixtures.suva.id, "warnings": false]]],
                bearer: bearer)
            #expect(status == .ok)
            #expect(body["currentLocation"]["forecasts"].bool == false && body["currentLocation"]["warnings"].bool == true)
            let suva = body["favourites"].array.first { $0["cityId"].int == WarningFixtures.suva.id }
            let berlin = body["favourites"].array.first { $0["cityId"].int == WarningFixtures.berlin.id }
            #expect(suva?["warnings"].bool == false && suva?["forecasts"].bool == true)
            #expect(berlin?["warnings"].bool == true && berlin?["forecasts"].bool == true)
            (_, body) = try await harness.request(.get, "/v1/me/notification-settings", bearer: try await harness.token())
            #expect(body["favourites"].array.isEmpty, "another user has their own")
        }
    }

    @Test("A6: admins publish news; everyone lists it newest first and opens one")
    func news() async throws {
        try await WarningTestHarness.run { harness in
            let admin = try await harness.token("admin-1", role: .admin)
            let items: [[String: Any]] = [
                [
                    "name": "Storm season", "body": "Expect gales.", "date": "2026-11-20", "time": "09:15", "location": "Berlin",
                    "timeZone": "Europe/Berlin",
                ],
                ["name": "First snow", "body": "Snow reached the city.", "date": "2026-11-22", "time": "18:00", "location": "Munich"],
                ["name": "Heatwave review", "body": "The summer in numbers.", "date": "2026-09-01", "time": "12:00", "location": "Rome"],
            ]
            var ids: [String] = []
            for item in items {
                let (status, body) = try await harness.request(.post, "/v1/admin/news", json: item, bearer: admin)
                #expect(status == .created, "\(body.raw ?? "")")
                ids.append(body["id"].string ?? "")
            }
            var (status, body) = try await harness.request(.get, "/v1/news?pageSize=2")
            #expect(status == .ok)
            #expect(body["news"].array.map { $0["name"].string } == ["First snow", "Storm season"] && body["hasMore"].bool == true)
            (_, body) = try await harness.request(.get, "/v1/news?pageSize=2&page=2")
            #expect(body["news"].array.map { $0["name"].string } == ["Heatwave review"] && body["hasMore"].bool == false)
            (status, body) = try await harness.request(.get, "/v1/news/\(ids[0])")
            #expect(status == .ok && body["body"].string == "Expect gales." && body["location"].string == "Berlin")
            #expect(body["happenedAtText"].string == "09:15 AM, Friday, 20/11/2026")
            (status, body) = try await harness.request(.post, "/v1/admin/news", json: items[0], bearer: try await harness.token())
            #expect(status == .forbidden)
        }
    }

    @Test("A5, X3: an account keeps DEVICES_PER_ACCOUNT push tokens; registering another drops the least recently registered")
    func devicesPerAccount() async throws {
        try await WarningTestHarness.run(extraEnvironment: ["DEVICES_PER_ACCOUNT": "2"]) { harness in
            let owner = UUID().uuidString.lowercased()
            let bearer = try await harness.token(owner)
            let tokens = ["a1", "b2", "c3"].map { String(repeating: $0, count: 32) }
            for token in tokens {
                let (status, body) = try await harness.request(.put, "/v1/me/devices/\(token)", json: ["timeZone": "Europe/Berlin"], bearer: bearer)
                #expect(status == .ok, "\(body.raw ?? "")")
            }
            #expect(try await harness.count("SELECT count(*)::int FROM devices WHERE user_id = '\(owner)'") == 2)
            #expect(try await harness.count("SELECT count(*)::int FROM devices WHERE token = '\(tokens[0])'") == 0, "the oldest went")
            // Registering a kept one again makes it the newest: the next new one drops the other.
            #expect(try await harness.request(.put, "/v1/me/devices/\(tokens[1])", json: ["timeZone": "Asia/Bangkok"], bearer: bearer).0 == .ok)
            #expect(try await harness.request(.put, "/v1/me/devices/\(tokens[0])", json: ["timeZone": "Asia/Bangkok"], bearer: bearer).0 == .ok)
            #expect(try await harness.count("SELECT count(*)::int FROM devices WHERE token = '\(tokens[2])'") == 0)
            #expect(try await harness.count("SELECT count(*)::int FROM devices WHERE user_id = '\(owner)'") == 2)
        }
    }

    @Test("A4, X1: a device token another account holds moves only from the same app install; otherwise 409 and nothing changes")
    func deviceTokenBelongsToOneAccount() async throws {
        try await WarningTestHarness.run { harness in
            let token = String(repeating: "c0", count: 32)
            let (owner, intruder, newOwner) = (UUID().uuidString, UUID().uuidString, UUID().uuidString)
            let install = ["installId": "install-A-1234", "timeZone": "Europe/Berlin"]
            var (status, body) = try await harness.request(.put, "/v1/me/devices/\(token)", json: install, bearer: try await harness.token(owner))
            #expect(status == .ok, "\(body.raw ?? "")")
            // Re-registering one's own device needs no proof.
            (status, _) = try await harness.request(
                .put, "/v1/me/devices/\(token)", json: ["timeZone": "Asia/Bangkok"], bearer: try await harness.token(owner))
            #expect(status == .ok)
            for attempt in [[:], ["installId": "install-B-9999"]] as [[String: String]] {
                (status, body) = try await harness.request(.put, "/v1/me/devices/\(token)", json: attempt, bearer: try await harness.token(intruder))
                #expect(status == .conflict && body["error"]["code"].string == "device_registered_elsewhere", "\(body.raw ?? "")")
            }
            #expect(try await harness.count("SELECT count(*)::int FROM devices WHERE token = '\(token)' AND user_id = '\(owner)'") == 1)
            #expect(try await harness.count("SELECT count(*)::int FROM devices WHERE time_zone = 'Asia/Bangkok'") == 1, "untouched")
            // The same install signed in to another account takes its token along.
            (status, body) = try await harness.request(
                .put, "/v1/me/devices/\(token)", json: ["installId": "install-A-1234"], bearer: try await harness.token(newOwner))
            #expect(status == .ok, "\(body.raw ?? "")")
            #expect(try await harness.count("SELECT count(*)::int FROM devices WHERE token = '\(token)' AND user_id = '\(newOwner)'") == 1)
            (status, body) = try await harness.request(
                .put, "/v1/me/devices/\(token)", json: ["installId": "short"], bearer: try await harness.token(newOwner))
            #expect(status == .badRequest, "\(body.raw ?? "")")
        }
    }

    @Test("X3: bad input to every route is a 4xx JSON error with a stable code, naming bad fields")
    func badInput() async throws {
        try await WarningTestHarness.run { harness in
            let user = try await harness.token()
            let admin = try await harness.token("admin-1", role: .admin)
            let token = String(repeating: "ab", count: 32)
            let cases: [(String, String, [String: Any]?, String?, Int, String)] = [
                ("GET", "/v1/cities/abc/warnings", nil, nil, 400, "invalid_request"),
                ("GET", "/v1/cities/-4/warnings", nil, nil, 400, "invalid_request"),
                ("GET", "/v1/warnings", nil, nil, 400, "invalid_request"),
                ("GET", "/v1/warnings?south=10&west=0&north=5&east=1", nil, nil, 422, "invalid_box"),
                ("GET", "/v1/warnings?south=91&west=0&north=95&east=1", nil, nil, 400, "invalid_request"),
                ("GET", "/v1/me/notification-settings", nil, nil, 401, "unauthorized"),
                ("PUT", "/v1/me/notification-settings", [:], user, 422, "validation_failed"),
                ("PUT", "/v1/me/notification-settings", ["favourites": [["warnings": false]]], user, 400, "invalid_request"),
                ("PUT", "/v1/me/notification-settings", ["favourites": [["cityId": 0]]], user, 400, "invalid_request"),
                ("PUT", "/v1/me/notification-settings", ["currentLocation": ["warnings": "no"]], user, 400, "invalid_request"),
                ("PUT", "/v1/me/devices/xyz", [:], user, 400, "invalid_request"),
                ("PUT", "/v1/me/devices/\(token)", ["currentCityId": 0], user, 400, "invalid_request"),
                ("PUT", "/v1/me/devices/\(token)", ["timeZone": "Mars/Base"], user, 422, "validation_failed"),
                ("DELETE", "/v1/me/devices/\(token)", nil, user, 404, "device_not_found"),
                ("GET", "/v1/news?pageSize=500", nil, nil, 400, "invalid_request"),
                ("GET", "/v1/news/not-a-uuid", nil, nil, 400, "invalid_request"),
                ("GET", "/v1/news/\(UUID())", nil, nil, 404, "news_not_found"),
                ("POST", "/v1/admin/news", ["name": "x"], nil, 401, "unauthorized"),
                (
                    "POST", "/v1/admin/news", ["name": " ", "body": "b", "location": "l", "date": "2026-2-30", "time": "10:00"], admin, 400,
                    "invalid_request"
                ),
                (
                    "POST", "/v1/admin/news", ["name": "n", "body": "b", "location": "l", "date": "2026-02-30", "time": "10:00"], admin, 422,
                    "validation_failed"
                ),
                (
                    "POST", "/v1/admin/news",
                    ["name": "n", "body": "b", "location": "l", "date": "2026-02-28", "time": "10:00", "timeZone": "Mars/Base"], admin, 422,
                    "validation_failed"
                ),
                ("GET", "/v1/admin/push-deliveries", nil, user, 403, "forbidden"),
                ("GET", "/v1/admin/push-deliveries?limit=0", nil, admin, 400, "invalid_request"),
                ("GET", "/v1/admin/push-deliveries?userId=\(String(repeating: "u", count: 201))", nil, admin, 400, "invalid_request"),
            ]
            for (method, path, json, bearer, expected, code) in cases {
                let (status, body) = try await harness.request(.init(rawValue: method)!, path, json: json, bearer: bearer)
                #expect(Int(status.code) == expected && body["error"]["code"].string == code, "\(method) \(path): \(status) \(body.raw ?? "")")
            }
            let (_, body) = try await harness.request(
                .post, "/v1/admin/news", json: ["name": "", "body": " ", "location": "\r\n", "date": "2026-2-30", "time": "10:00"], bearer: admin)
            #expect(Set(((body["error"]["details"].raw as? [String: Any]) ?? [:]).keys) == ["name", "body", "location", "date"])
        }
    }
}
