-- A rater's ratings, newest first: "my ratings" pages and account erasure read this index
-- instead of the whole table.
CREATE INDEX ratings_by_rater ON ratings (rater_id, updated_at_ms DESC, item_id);

-- The Bayesian score's order key (floor(score * 2^124) in two 62-bit halves), kept in the same
-- transaction as every write; NULL while an item has no ratings. The ranking reads this index
-- from a position, so a deep page costs what the first one does.
ALTER TABLE items ADD COLUMN score_high INTEGER;
ALTER TABLE items ADD COLUMN score_low INTEGER;
CREATE INDEX items_by_score ON items (score_high DESC, score_low DESC, rating_count DESC, item_id) WHERE rating_count > 0;

-- Values every process on this database shares: the secret that seals pagination cursors, and
-- the ranking settings the stored scores were computed with.
CREATE TABLE settings (
    name  TEXT NOT NULL PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
