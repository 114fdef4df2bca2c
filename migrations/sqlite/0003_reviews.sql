-- How many of an item's reviews are published, kept in the same transaction as every review
-- write, so the summary stays one primary-key read.
ALTER TABLE items ADD COLUMN review_count INTEGER NOT NULL DEFAULT 0 CHECK (review_count >= 0);

-- A rater's words beside their rating: at most one per rating, gone with it (the cascade is the
-- schema's guarantee; the store also removes it explicitly to move review_count). `stars` is the
-- rating's, copied so that the star orders and filters are index seeks; every write of the
-- rating writes it too. `helpful_key` is floor(Wilson lower bound * 10^15), rewritten in each
-- vote's transaction, so "most helpful" is an index seek as well. A rowid table, unlike the
-- others: a review's row holds its text, and rows this large appended in rowid order dirty far
-- fewer pages per write than rows kept in key order (sqlite.org/withoutrowid.html, section 4).
CREATE TABLE reviews (
    item_id       TEXT    NOT NULL,
    rater_id      TEXT    NOT NULL,
    stars         INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 10),
    title         TEXT,
    body          TEXT    NOT NULL,
    language      TEXT,
    status        TEXT    NOT NULL DEFAULT 'published' CHECK (status IN ('published', 'pending', 'rejected')),
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL,
    helpful_up    INTEGER NOT NULL DEFAULT 0 CHECK (helpful_up >= 0),
    helpful_down  INTEGER NOT NULL DEFAULT 0 CHECK (helpful_down >= 0),
    helpful_key   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (item_id, rater_id),
    FOREIGN KEY (item_id, rater_id) REFERENCES ratings (item_id, rater_id) ON DELETE CASCADE
);
-- One index per list order, holding published reviews only; each ends in the tie order
-- (created_at_ms DESC, rater_id), so a page after a cursor is one seek whatever its depth.
CREATE INDEX reviews_newest  ON reviews (item_id, created_at_ms DESC, rater_id) WHERE status = 'published';
CREATE INDEX reviews_helpful ON reviews (item_id, helpful_key DESC, created_at_ms DESC, rater_id) WHERE status = 'published';
CREATE INDEX reviews_highest ON reviews (item_id, stars DESC, created_at_ms DESC, rater_id) WHERE status = 'published';
CREATE INDEX reviews_lowest  ON reviews (item_id, stars ASC, created_at_ms DESC, rater_id) WHERE status = 'published';
-- A rater's own reviews in every status, newest change first.
CREATE INDEX reviews_by_rater ON reviews (rater_id, updated_at_ms DESC, item_id);

-- Helpfulness votes: one per voter per review, gone with the review.
CREATE TABLE review_votes (
    item_id  TEXT    NOT NULL,
    rater_id TEXT    NOT NULL,
    voter_id TEXT    NOT NULL,
    helpful  INTEGER NOT NULL CHECK (helpful IN (0, 1)),
    PRIMARY KEY (item_id, rater_id, voter_id),
    FOREIGN KEY (item_id, rater_id) REFERENCES reviews (item_id, rater_id) ON DELETE CASCADE
) WITHOUT ROWID;
-- The votes a rater gave, for erasure.
CREATE INDEX review_votes_by_voter ON review_votes (voter_id);
