/// The review reads both engines run, one text each so that they seek the same indexes and return
/// the same order, ties included; `placeholder` writes each parameter in the engine's dialect.
public enum ReviewQueries {
    /// The columns a `Review` is read from, in order, but for the item's scale (`r` is `reviews`).
    public static let columns = """
        r.item_id, r.rater_id, r.stars, r.title, r.body, r.language, r.status, r.created_at_ms, r.updated_at_ms, \
        r.helpful_up, r.helpful_down, r.reply_body, r.reply_author, r.reply_updated_at_ms
        """

    /// How many columns `columns` holds.
    public static let columnCount = 14

    /// `columns` and the item's scale after them (at `columnCount`), for reads across items.
    public static let columnsWithScale = columns + ", (SELECT max_rating FROM items WHERE items.item_id = r.item_id)"

    /// Where a page's rows (`itemPageBranches`, `itemPage`) put the stored key they are sorted by.
    public static let sortKeyColumn = columnCount

    /// Where `itemPage`'s rows put the item's scale (after the sort key and the branch).
    public static let pageScaleColumn = columnCount + 2

    /// A review from its stored columns. The CHECK constraints keep every value in range; a row
    /// tampered with outside the service reads as the standard scale and a hidden status rather
    /// than trapping.
    public static func review(item: String, rater: String, stars: Int, title: String?, body: String, language: String?, status: String,
                              createdAtMilliseconds: Int, updatedAtMilliseconds: Int, up: Int, down: Int,
                              reply: (body: String?, author: String?, updatedAtMilliseconds: Int), maxRating: Int) -> Review {
        Review(item: ItemID(stored: item), rater: RaterID(stored: rater), stars: Stars(stored: stars),
               scale: (try? Scale(maxRating: maxRating)) ?? .standard, title: title, body: body,
               language: language.map(LanguageTag.init(stored:)), status: ReviewStatus(rawValue: status) ?? .pending,
               createdAtMilliseconds: Int64(createdAtMilliseconds), updatedAtMilliseconds: Int64(updatedAtMilliseconds),
               votes: HelpfulVotes(up: up, down: down),
               reply: reply.body.map { ReviewReply(body: $0, author: reply.author, updatedAtMilliseconds: Int64(reply.updatedAtMilliseconds)) })
    }

    /// The parameters of the page queries; `rawValue` is each one's position, counting from 1.
    public enum PageParameter: Int, CaseIterable, Sendable {
        case item = 1, key, createdAt, rater, starMask, language, limit
    }

    /// A page of an item's published reviews in `sort` after a position, as the statements that
    /// read it branch by branch, in order: a row follows the position in one of three ways (a
    /// later rater on the same key and time, an earlier time on the same key, a key further down
    /// the order), and each is its own seek on the sort's index (`reviews_<sort>`), already
    /// sorted, so a deep page costs what the first one does and nothing is sorted. A reader runs
    /// them in turn until it has its rows; the filter applies to the rows each seek reads
    /// (`starMask` as `ReviewFilter.starMask`, `language` lowercase or empty for none). Each row
    /// is `columns`, then the stored sort key. `newest` has no leading key: the position's key
    /// (always 0 there) is selected as the sort key, so that every order takes the same parameters.
    public static func itemPageBranches(_ sort: ReviewSort, placeholder: (PageParameter) -> String) -> [String] {
        branches(sort, placeholder: placeholder).map { follows, order, sortKey in
            """
            SELECT \(columns), \(sortKey) AS sort_key FROM reviews AS r
                WHERE item_id = \(placeholder(.item)) AND status = 'published' AND \(follows) AND \(filter(placeholder))
                ORDER BY \(order) LIMIT \(placeholder(.limit))
            """
        }
    }

    /// The same page as one statement, for an engine where a round trip costs more than ordering
    /// three short branches: their rows in branch order, each with the stored sort key, the
    /// branch, and the item's scale (`pageScaleColumn`).
    public static func itemPage(_ sort: ReviewSort, placeholder: (PageParameter) -> String) -> String {
        let direction = sort.isKeyDescending ? "DESC" : "ASC"
        let outerOrder = (sort == .newest ? [] : ["sort_key \(direction)"]) + ["created_at_ms DESC", "rater_id"]
        return branches(sort, placeholder: placeholder).enumerated().map { branch, parts in
            """
            SELECT * FROM (SELECT \(columns), \(parts.sortKey) AS sort_key, \(branch) AS branch,
                    (SELECT max_rating FROM items WHERE items.item_id = r.item_id) AS max_rating FROM reviews AS r
                WHERE item_id = \(placeholder(.item)) AND status = 'published' AND \(parts.follows) AND \(filter(placeholder))
                ORDER BY \(parts.order) LIMIT \(placeholder(.limit))) AS branch\(branch)
            """
        }.joined(separator: "\nUNION ALL\n") + "\nORDER BY branch, \(outerOrder.joined(separator: ", ")) LIMIT \(placeholder(.limit))"
    }

    /// Each branch's condition, its order and the expression of its sort key.
    private static func branches(_ sort: ReviewSort, placeholder: (PageParameter) -> String) -> [(follows: String, order: String, sortKey: String)] {
        let (key, createdAt, rater) = (placeholder(.key), placeholder(.createdAt), placeholder(.rater))
        let keyColumn: String? = switch sort {
        case .newest: nil
        case .helpful: "helpful_key"
        case .highest, .lowest: "stars"
        }
        var follows = ["created_at_ms = \(createdAt) AND rater_id > \(rater)", "created_at_ms < \(createdAt)"]
        if let keyColumn {
            follows = follows.map { "\(keyColumn) = \(key) AND \($0)" } + ["\(keyColumn) \(sort.isKeyDescending ? "<" : ">") \(key)"]
        }
        let order = ((keyColumn.map { ["\($0) \(sort.isKeyDescending ? "DESC" : "ASC")"] } ?? []) + ["created_at_ms DESC", "rater_id"])
            .joined(separator: ", ")
        return follows.map { ($0, order, keyColumn.map { "r.\($0)" } ?? key) }
    }

    private static func filter(_ placeholder: (PageParameter) -> String) -> String {
        let (mask, language) = (placeholder(.starMask), placeholder(.language))
        return "((\(mask) >> stars) & 1) = 1 AND (\(language) = '' OR lower(language) = \(language) OR lower(language) LIKE \(language) || '-%')"
    }
}
