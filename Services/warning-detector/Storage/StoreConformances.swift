import Foundation
import WarningDetectorCore

/// The Postgres stores behind the use cases' protocols.
extension UserStore: NotificationSettingsStore, DeviceRegistry {}
extension NewsStore: NewsPublishing {}
