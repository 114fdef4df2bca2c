import ASCIIKit
import HTTP1
import JSON
public import RatingsCore

/// The bodies of webhook deliveries: `{"type", "timestamp", "data"}`, the item's summary in the
/// catalog's fallback language (English), never a review's text.
public struct EventBodies: Sendable {
    private let wire: WireFormat

    public init(languages: LanguageCatalog) {
        wire = WireFormat(language: WireLanguage(languages.languages[0]))
    }

    /// The body of `event`, a few hundred bytes (far below the 20 KB a body may take).
    public func body(of event: ChangeEvent) -> String {
        var json = JSONWriter(capacity: 1_024)
        json.beginObject()
        json.key("type"); json.string(event.type.rawValue)
        json.key("timestamp"); Timestamp.withRFC3339(milliseconds: event.atMilliseconds) { json.string(utf8: $0) }
        json.key("data")
        switch event.subject {
        case .item(let change):
            json.beginObject()
            json.key("itemId"); json.string(change.item.rawValue)
            if event.type != .itemConfigured {
                json.key("raterId"); if let rater = change.rater { json.string(rater.rawValue) } else { json.null() }
                json.key("stars"); if let stars = change.stars { json.integer(stars) } else { json.null() }
            }
            if event.type.family == "review" {
                json.key("status"); if let status = change.status { json.string(status.rawValue) } else { json.null() }
            }
            json.key("itemVersion"); json.integer(Int(change.version))
            json.key("summary"); wire.summary(change.summary, into: &json)
            json.endObject()
        case .rater(let rater, let erasure):
            // The erasure answer's own members.
            WireFormat.erased(rater, erasure, into: &json)
        }
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }
}
