/// What every paged listing (a rater's ratings, the ranking) reads the same way: how many
/// entries a page holds, and the cursor to the next page, sealed so that only this server's
/// cursors for this listing are taken.
extension RatingsAPI {
    /// Most entries one page may hold, and how many it holds unless asked.
    static let pageLimits = (range: 1...100, standard: 20)

    /// The refusal of a cursor the server did not issue.
    static let badCursor = APIError.invalidQuery("cursor was not issued by this server for this listing (it is malformed or was altered); start again without it.")

    /// The position inside the `cursor` parameter, read by `decode`; nil when there is none; 400
    /// for a cursor that is not one this server issued for this kind of listing (and what it is
    /// bound to), or whose position does not read.
    func cursor<Position>(_ context: RequestContext, _ kind: CursorSeal.Kind, boundTo binding: String,
                          decode: ([UInt8]) -> Position?) throws -> Position? {
        try sealedCursor(context, kind, boundTo: binding, decode: decode)?.position
    }

    /// As `cursor`, with the cursor's text as it was sent.
    func sealedCursor<Position>(_ context: RequestContext, _ kind: CursorSeal.Kind, boundTo binding: String,
                                decode: ([UInt8]) -> Position?) throws -> (text: String, position: Position)? {
        guard let text = try context.target.single("cursor", rule: "pass the nextCursor of the previous page as it was given") else { return nil }
        guard let bytes = CursorSeal(secret: store.cursorSecret).open(text, kind, boundTo: binding),
              let position = decode(bytes) else { throw Self.badCursor }
        return (text, position)
    }
}
