/// What every paged listing (a rater's ratings, the ranking) reads the same way: how many
/// entries a page holds, and the cursor to the next page, sealed so that only this server's
/// cursors for this listing are taken.
extension RatingsAPI {
    /// Most entries one page may hold, and how many it holds unless asked.
    static let pageLimits = (range: 1...100, standard: 20)

    /// The refusal of a cursor the server did not issue.
    static let badCursor = APIError.invalidQuery("cursor was not issued by this server for this listing (it is malformed or was altered); start again without it.")

    /// The position inside the `cursor` parameter, nil when there is none; 400 for a cursor that
    /// is not one this server issued for this kind of listing (and this rater).
    func cursor(_ context: RequestContext, _ kind: CursorSeal.Kind, boundTo binding: String) throws -> [UInt8]? {
        try sealedCursor(context, kind, boundTo: binding)?.position
    }

    /// As `cursor`, with the cursor's text as it was sent.
    func sealedCursor(_ context: RequestContext, _ kind: CursorSeal.Kind, boundTo binding: String) throws -> (text: String, position: [UInt8])? {
        guard let text = try context.target.single("cursor", rule: "pass the nextCursor of the previous page as it was given") else { return nil }
        guard let position = CursorSeal(secret: store.cursorSecret).open(text, kind, boundTo: binding) else { throw Self.badCursor }
        return (text, position)
    }
}
