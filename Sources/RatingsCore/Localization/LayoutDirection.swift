/// Which way a language's text, and so a row of stars, runs.
public enum LayoutDirection: String, Sendable, CaseIterable {
    case leftToRight
    case rightToLeft

    /// The edge a half star fills from: iOS mirrors `star.leadinghalf.filled` in right-to-left
    /// layouts, so its filled half is always on the leading edge.
    public var leadingEdge: HorizontalEdge { self == .leftToRight ? .left : .right }
}

/// A physical side of a drawn star.
public enum HorizontalEdge: String, Sendable {
    case left
    case right
}
