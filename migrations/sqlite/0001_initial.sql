-- Items carry their scale and the aggregate of their ratings, kept up to date in the same
-- transaction as every rating write, so a summary is one primary-key read.
CREATE TABLE items (
    item_id        TEXT    NOT NULL PRIMARY KEY,
    max_rating     INTEGER NOT NULL CHECK (max_rating BETWEEN 1 AND 10),
    scale_explicit INTEGER NOT NULL DEFAULT 0 CHECK (scale_explicit IN (0, 1)),
    rating_count   INTEGER NOT NULL DEFAULT 0 CHECK (rating_count >= 0),
    rating_sum     INTEGER NOT NULL DEFAULT 0 CHECK (rating_sum >= 0),
    stars_1        INTEGER NOT NULL DEFAULT 0,
    stars_2        INTEGER NOT NULL DEFAULT 0,
    stars_3        INTEGER NOT NULL DEFAULT 0,
    stars_4        INTEGER NOT NULL DEFAULT 0,
    stars_5        INTEGER NOT NULL DEFAULT 0,
    stars_6        INTEGER NOT NULL DEFAULT 0,
    stars_7        INTEGER NOT NULL DEFAULT 0,
    stars_8        INTEGER NOT NULL DEFAULT 0,
    stars_9        INTEGER NOT NULL DEFAULT 0,
    stars_10       INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

-- One rating per rater per item.
CREATE TABLE ratings (
    item_id       TEXT    NOT NULL REFERENCES items (item_id),
    rater_id      TEXT    NOT NULL,
    stars         INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 10),
    updated_at_ms INTEGER NOT NULL,
    PRIMARY KEY (item_id, rater_id)
) WITHOUT ROWID;
