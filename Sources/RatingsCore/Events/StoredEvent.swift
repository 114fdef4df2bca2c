import ASCIIKit

/// A change event as the outbox keeps it: a line of tab-separated fields, about 80 bytes, from
/// which a delivery renders the body. The writer stores this rather than the body, so a write
/// spends no time on JSON and the outbox a fraction of the bytes; the fields hold everything the
/// body shows, so every attempt renders the same bytes.
extension ChangeEvent {
    /// `i` (about an item) or `r` (a rater's erasure), then the type and time, then the subject's
    /// fields. Identifiers and the other fields hold no tab.
    public var stored: String {
        var line = ""
        line.reserveCapacity(128)
        func field(_ text: String) {
            line += "\t"
            line += text
        }
        switch subject {
        case .item(let change):
            let summary = change.summary
            line += "i"
            field(type.rawValue)
            field(String(atMilliseconds))
            field(change.item.rawValue)
            field(change.rater?.rawValue ?? "")
            field(change.stars.map(String.init) ?? "")
            field(change.status?.rawValue ?? "")
            field(String(change.version))
            field(String(summary.scale.maxRating))
            field(String(summary.count))
            field(String(summary.sum))
            line += "\t"
            for (index, count) in summary.distribution.enumerated() {
                if index > 0 { line += "," }
                line += String(count)
            }
            field(String(summary.reviewCount))
        case .rater(let rater, let erasure):
            line += "r"
            field(type.rawValue)
            field(String(atMilliseconds))
            field(rater.rawValue)
            field(String(erasure.ratings))
            field(String(erasure.reviews))
            field(String(erasure.votes))
            field(String(erasure.flags))
        }
        return line
    }

    /// The event `stored` wrote; nil for a line it did not write.
    public init?(stored line: String) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 3, let type = EventType(rawValue: fields[1]), let at = Int64(fields[2]) else { return nil }
        switch fields[0] {
        case "i" where fields.count == 13:
            guard let version = Int64(fields[7]), let maxRating = Int(fields[8]), let scale = try? Scale(maxRating: maxRating),
                  let count = Int(fields[9]), let sum = Int(fields[10]), let reviewCount = Int(fields[12]) else { return nil }
            let counts = fields[11].split(separator: ",").compactMap { Int($0) }
            let item = ItemID(stored: fields[3])
            let summary = ItemSummary(item: item, scale: scale, count: count, sum: sum, distribution: PerStar(counts), reviewCount: reviewCount)
            let change = ItemChange(item: item, rater: fields[4].isEmpty ? nil : RaterID(stored: fields[4]), stars: Int(fields[5]),
                                    status: ReviewStatus(rawValue: fields[6]), version: version, summary: summary)
            self.init(type: type, atMilliseconds: at, subject: .item(change))
        case "r" where fields.count == 8:
            guard let ratings = Int(fields[4]), let reviews = Int(fields[5]), let votes = Int(fields[6]), let flags = Int(fields[7]) else { return nil }
            self.init(type: type, atMilliseconds: at,
                      subject: .rater(RaterID(stored: fields[3]), Erasure(ratings: ratings, reviews: reviews, votes: votes, flags: flags)))
        default:
            return nil
        }
    }
}
