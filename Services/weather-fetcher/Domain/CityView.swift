import Foundation

/// One user's views waiting to be written: one per city, oldest first.
package struct UserCityViews: Sendable, Equatable {
    package var userId: String
    package var views: [CityView]

    package init(userId: String, views: [CityView]) {
        self.userId = userId
        self.views = views
    }
}

/// A city viewed, and when.
package struct CityView: Sendable, Equatable {
    package var cityId: Int
    package var viewedAt: Date

    package init(cityId: Int, viewedAt: Date) {
        self.cityId = cityId
        self.viewedAt = viewedAt
    }
}
