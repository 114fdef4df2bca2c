/// Why a review was flagged.
public enum FlagReason: String, Sendable, Hashable, CaseIterable {
    case spam
    case offensive
    case offTopic = "off-topic"
    case personalInformation = "personal-information"
    case fake
    case other

    /// Every reason as the wire spells it, for a refusal's detail.
    public static let listed = allCases.map(\.rawValue).joined(separator: ", ")
}

/// How many flags a review holds of each reason.
public struct FlagCounts: Sendable, Hashable {
    /// By `FlagReason.allCases` order.
    private var counts: [Int]

    public init() {
        counts = Array(repeating: 0, count: FlagReason.allCases.count)
    }

    /// Counts from `(reason, count)` pairs as stored; unknown reasons are left out.
    public init<Pairs: Sequence>(_ pairs: Pairs) where Pairs.Element == (String, Int) {
        self.init()
        for (reason, count) in pairs { if let reason = FlagReason(rawValue: reason) { self[reason] += count } }
    }

    /// Counts read from six result columns in `FlagReason.allCases` order (as
    /// `ModerationQueries.flagCountColumns` selects them): `column(n)` reads the nth.
    public init(columns column: (Int) -> Int) {
        counts = FlagReason.allCases.indices.map(column)
    }

    public static let none = FlagCounts()

    public subscript(reason: FlagReason) -> Int {
        get { counts[Self.index(reason)] }
        set { counts[Self.index(reason)] = newValue }
    }

    /// Every flag of every reason.
    public var total: Int { counts.reduce(0, +) }

    private static func index(_ reason: FlagReason) -> Int {
        FlagReason.allCases.firstIndex(of: reason) ?? 0
    }
}
