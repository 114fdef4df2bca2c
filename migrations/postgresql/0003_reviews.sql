-- How many of an item's reviews are published, kept in the same transaction as every review
-- write, so the summary stays one primary-key read.
ALTER TABLE items ADD COLUMN review_count bigint NOT NULL DEFAULT 0 CHECK (review_count >= 0);

-- A rater's words beside their rating: at most one per rating, gone with it (the cascade is the
-- schema's guarantee; the store also removes it explicitly to move review_count). `stars` is the
-- rating's, copied so that the star orders and filters are index seeks; every write of the
-- rating writes it too. `helpful_key` is floor(Wilson lower bound * 10^15), rewritten in each
-- vote's transaction, so "most helpful" is an index seek as well.
CREATE TABLE reviews (
    item_id       text COLLATE "C" NOT NULL,
    rater_id      text COLLATE "C" NOT NULL,
    stars         smallint NOT NULL CHECK (stars BETWEEN 1 AND 10),
    title         text,
    body          text     NOT NULL,
    language      text,
    status        text     NOT NULL DEFAULT 'published' CHECK (status IN ('published', 'pending', 'rejected')),
    created_at_ms bigint   NOT NULL,
    updated_at_ms bigint   NOT NULL,
    helpful_up    bigint   NOT NULL DEFAULT 0 CHECK (helpful_up >= 0),
    helpful_down  bigint   NOT NULL DEFAULT 0 CHECK (helpful_down >= 0),
    helpful_key   bigint   NOT NULL DEFAULT 0,
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
    item_id  text COLLATE "C" NOT NULL,
    rater_id text COLLATE "C" NOT NULL,
    voter_id text COLLATE "C" NOT NULL,
    helpful  boolean NOT NULL,
    PRIMARY KEY (item_id, rater_id, voter_id),
    FOREIGN KEY (item_id, rater_id) REFERENCES reviews (item_id, rater_id) ON DELETE CASCADE
);
-- The votes a rater gave, for erasure.
CREATE INDEX review_votes_by_voter ON review_votes (voter_id);
