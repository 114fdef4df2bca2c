import ASCIIKit

/// `If-None-Match` evaluation (RFC 9110 §13.1.2): weak comparison, `*`, and lists.
public enum EntityTag {
    /// Whether `ifNoneMatch` names `etag` (or is `*`), so a GET or HEAD may answer 304.
    public static func matches(ifNoneMatch: String, etag: String) -> Bool {
        let wanted = opaque(etag)
        for candidate in ifNoneMatch.split(separator: ",") {
            let tag = candidate.trimmingSpacesAndTabs()
            if tag == "*" || opaque(tag) == wanted { return true }
        }
        return false
    }

    /// The quoted part of a tag, without any `W/` prefix.
    private static func opaque(_ tag: String) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
    }
}
