/// The review reads both engines run, one text each so that they seek the same indexes and return
/// the same order, ties included; `placeholder` writes each parameter in the engine's dialect.
public enum ReviewQueries {
    /// The columns a `Review` is read from, in order, the item's scale last (`r` is `reviews`).
    public static let columns = """
        r.item_id, r.rater_id, r.stars, r.title, r.body, r.language, r.status, r.created_at_ms, r.updated_at_ms, \
        r.helpful_up, r.helpful_down, (SELECT max_rating FROM items WHERE items.item_id = r.item_id)
        """

    /// How many columns `columns` holds.
    public static let columnCount = 12

    /// Where `itemPage` puts the stored key it sorted by (after `columns` and the branch).
    public static let sortKeyColumn = columnCount + 1

    /// A review from its stored columns. The CHECK constraints keep every value in range; a row
    /// tampered with outside the service reads as the standard scale and a hidden status rather
    /// than trapping.
    public static func review(item: String, rater: String, stars: Int, title: String?, body: String, language: String?, status: String,
                              createdAtMilliseconds: Int, updatedAtMilliseconds: Int, up: Int, down: Int, maxRating: Int) -> Review {
        Review(item: ItemID(stored: item), rater: RaterID(stored: rater), stars: Stars(stored: stars),
               scale: (try? Scale(maxRating: maxRating)) ?? .standard, title: title, body: body,
               language: language.map(LanguageTag.init(stored:)), status: ReviewStatus(rawValue: status) ?? .pending,
               createdAtMilliseconds: Int64(createdAtMilliseconds), updatedAtMilliseconds: Int64(updatedAtMilliseconds),
               votes: HelpfulVotes(up: up, down: down))
    }

    /// The parameters of `itemPage`; `rawValue` is each one's position, counting from 1.
    public enum PageParameter: Int, CaseIterable, Sendable {
        case item = 1, key, createdAt, rater, starMask, language, limit
    }

    /// A page of an item's published reviews in `sort` after a position, the filter applied to
    /// the rows the seek reads (`starMask` as `ReviewFilter.starMask`, `language` lowercase or
    /// empty for none).
    ///
    /// A row follows the position in one of three ways: a later rater on the same key and time,
    /// an earlier time on the same key, a key further down the order. Each is its own seek on the
    /// sort's index (`reviews_<sort>`), so a deep page costs what the first one does. The branches
    /// come out in order, each already sorted; the outer sort orders at most three pages. `newest`
    /// has no leading key: the position's key (always 0 there) is selected as the sort key, so
    /// that every order takes the same parameters.
    public static func itemPage(_ sort: ReviewSort, placeholder: (PageParameter) -> String) -> String {
        let (item, key, createdAt, rater) = (placeholder(.item), placeholder(.key), placeholder(.createdAt), placeholder(.rater))
        let (mask, language, limit) = (placeholder(.starMask), placeholder(.language), placeholder(.limit))
        let keyColumn: String? = switch sort {
        case .newest: nil
        case .helpful: "helpful_key"
        case .highest, .lowest: "stars"
        }
        let direction = sort.isKeyDescending ? "DESC" : "ASC"
        var branches = ["created_at_ms = \(createdAt) AND rater_id > \(rater)", "created_at_ms < \(createdAt)"]
        if let keyColumn {
            branches = branches.map { "\(keyColumn) = \(key) AND \($0)" } + ["\(keyColumn) \(sort.isKeyDescending ? "<" : ">") \(key)"]
        }
        let order = (keyColumn.map { ["\($0) \(direction)"] } ?? []) + ["created_at_ms DESC", "rater_id"]
        let outerOrder = (keyColumn == nil ? [] : ["sort_key \(direction)"]) + ["created_at_ms DESC", "rater_id"]
        let filter = "((\(mask) >> stars) & 1) = 1 AND (\(language) = '' OR lower(language) = \(language) OR lower(language) LIKE \(language) || '-%')"
        return branches.enumerated().map { branch, follows in
            """
            SELECT * FROM (SELECT \(columns), \(branch) AS branch, \(keyColumn.map { "r.\($0)" } ?? key) AS sort_key FROM reviews AS r
                WHERE item_id = \(item) AND status = 'published' AND \(follows) AND \(filter)
                ORDER BY \(order.joined(separator: ", ")) LIMIT \(limit)) AS branch\(branch)
            """
        }.joined(separator: "\nUNION ALL\n") + "\nORDER BY branch, \(outerOrder.joined(separator: ", ")) LIMIT \(limit)"
    }
}
