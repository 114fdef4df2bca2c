import ASCIIKit
import HTTP1
import JSON
import RatingsCore

/// Item summaries, one or many, and an item's scale.
extension RatingsAPI {
    /// Most ids one batch may ask for.
    static let maxBatch = 100

    func readSummary(_ context: RequestContext) throws -> Reply {
        let language = try context.language()
        let item = try ItemID(context.parameter(.itemId))
        let defaultScale = configuration.defaultScale
        // At once from the store's memory when it can vouch for it, else once it has read.
        if let summary = store.cachedSummary(of: item, defaultScale: defaultScale) {
            return .now(summaryResponse(summary, in: language))
        }
        return context.store({ [store] in store.summary(of: item, defaultScale: defaultScale, completion: $0) }) { [self] summary in
            summaryResponse(summary, in: language)
        }
    }

    private func summaryResponse(_ summary: ItemSummary, in language: WireLanguage) -> HTTPResponse {
        renderings.rendering(of: summary, in: language).response
    }

    func readSummaries(_ context: RequestContext) throws -> Reply {
        let language = try context.language()
        let items = try Self.batchIDs(context.target.rawQueryValues("ids"))
        let rater = try context.target.single("rater", rule: "rater names one rater, as a path identifier (or me with a token)")
            .map { try services.access.batchRater($0, caller: context.identity()) }
        let defaultScale = configuration.defaultScale
        if rater == nil, let summaries = store.cachedSummaries(of: items, defaultScale: defaultScale) {
            return .now(summaryList(summaries, in: language))
        }
        return context.store({ [store] in store.summaries(of: items, rater: rater, defaultScale: defaultScale, completion: $0) }) { [self] listings in
            guard rater == nil else {
                return Responses.representation(in: language) { wire, json in wire.listingsWithStars(listings, into: &json) }
            }
            return summaryList(listings.map(\.summary), in: language)
        }
    }

    /// A list of summaries without a rater's stars: every entry is a summary rendered before, so
    /// copy the bytes, and derive the ETag from theirs instead of hashing the whole body again.
    /// Each rendering is written while this holds it, never gathered into an array first.
    private func summaryList(_ summaries: [ItemSummary], in language: WireLanguage) -> HTTPResponse {
        var json = JSONWriter(capacity: 32 + summaries.count * Self.summaryBytes)
        var etag = Responses.CombinedETag()
        WireFormat.summaryList(into: &json) { json in
            for index in summaries.indices {
                let rendering = renderings.rendering(of: summaries[index], in: language)
                // Held explicitly across the copy, so its bytes are lent, not retained, for the call.
                withExtendedLifetime(rendering) { json.value(rendering.json) }
                etag.add(rendering.etagHash)
            }
        }
        return Responses.representation(in: language, body: json.bytes, etag: etag.finish(language.language.tag))
    }

    /// Room for one rendered summary in a list, so a list's writer seldom grows: a summary on a
    /// five-star scale takes about 350 bytes (the README's example, 346); the writer grows for a
    /// longer one (ten stars, a long id, another language's words).
    static let summaryBytes = 512

    /// The ids of a batch, in every form clients send them: one comma-separated value (commas
    /// also as `%2C`), repeated `ids=` parameters (OpenAPI's exploded form), or both. Each value
    /// is percent-decoded, then split on commas (no identifier holds one), in the order written.
    static func batchIDs(_ values: [String]) throws -> [ItemID] {
        guard !values.isEmpty else {
            throw APIError.invalidQuery("Give the items as ids=a,b,c or ids=a&ids=b&ids=c (1 to \(maxBatch) identifiers in all).")
        }
        // Counted first, then read: a list that is too long is refused as such, whatever it holds.
        var decoded: [String] = []
        decoded.reserveCapacity(values.count)
        var count = 0
        for value in values {
            guard var text = PercentDecoding.decode(value) else {
                throw APIError.invalidQuery("ids has \(ErrorResponse.quoted(value)), whose percent-escapes do not decode to UTF-8.")
            }
            // Split on commas (no identifier holds one), keeping empty pieces: they are errors.
            count += 1 + text.withUTF8 { ASCII.occurrences(of: UInt8(ascii: ","), in: $0) }
            guard count <= maxBatch else {
                throw APIError.invalidQuery("ids lists more than \(maxBatch) identifiers; ask for at most \(maxBatch) at a time.")
            }
            decoded.append(text)
        }
        // Each piece becomes an id as it is cut: no array of the pieces' text in between.
        var ids: [ItemID] = []
        ids.reserveCapacity(count)
        for var text in decoded {
            // Each piece is checked as bytes, and made text only once it is an id.
            try text.withUTF8 { bytes in
                try ASCII.forEachSlice(of: bytes, separatedBy: UInt8(ascii: ",")) { ids.append(try batchID($0)) }
            }
        }
        return ids
    }

    private static func batchID(_ piece: UnsafeBufferPointer<UInt8>) throws -> ItemID {
        do {
            return try ItemID(validating: piece)
        } catch {
            let problem = if case .invalidIdentifier(_, let problem) = error { problem } else { "is invalid" }
            throw APIError.invalidQuery("ids has \(ErrorResponse.quoted(String(decoding: piece, as: UTF8.self))), which is not an identifier: it \(problem). Identifiers are 1 to \(IdentifierRule.maxLength) characters from \(IdentifierRule.alphabetDescription).")
        }
    }

    func configure(_ context: RequestContext) throws -> Reply {
        try services.access.requireAdmin(context.identity())
        let language = try context.language()
        let item = try ItemID(context.parameter(.itemId))
        let scale: Scale
        switch try RequestBody.integerMember("maxRating", of: RequestBody.json(context.request)) {
        case .integer(let maxRating): scale = try Scale(maxRating: maxRating)
        case let problem:
            throw RequestBody.failure("maxRating", problem, must: "an integer from \(Scale.allowed.lowerBound) to \(Scale.allowed.upperBound)") {
                RatingError.scaleOutOfRange(given: $0)
            }
        }
        let request = ConfigureRequest(item: item, scale: scale, nowMilliseconds: services.clock.wallMilliseconds())
        return context.store({ [store] in store.configure(request, completion: $0) }) { outcome in
            Responses.json(outcome.created ? 201 : 200, in: language) { $0.summary(outcome.summary, into: &$1) }
        }
    }
}
