-- Items carry their scale and the aggregate of their ratings, kept up to date in the same
-- transaction as every rating write, so a summary is one primary-key read. Identifiers sort by
-- byte (COLLATE "C"), as SQLite sorts them, so both engines list items in the same order.
CREATE TABLE items (
    item_id        text COLLATE "C" NOT NULL PRIMARY KEY,
    max_rating     smallint NOT NULL CHECK (max_rating BETWEEN 1 AND 10),
    scale_explicit boolean  NOT NULL DEFAULT false,
    rating_count   bigint   NOT NULL DEFAULT 0 CHECK (rating_count >= 0),
    rating_sum     bigint   NOT NULL DEFAULT 0 CHECK (rating_sum >= 0),
    stars_1        bigint   NOT NULL DEFAULT 0,
    stars_2        bigint   NOT NULL DEFAULT 0,
    stars_3        bigint   NOT NULL DEFAULT 0,
    stars_4        bigint   NOT NULL DEFAULT 0,
    stars_5        bigint   NOT NULL DEFAULT 0,
    stars_6        bigint   NOT NULL DEFAULT 0,
    stars_7        bigint   NOT NULL DEFAULT 0,
    stars_8        bigint   NOT NULL DEFAULT 0,
    stars_9        bigint   NOT NULL DEFAULT 0,
    stars_10       bigint   NOT NULL DEFAULT 0
);

-- One rating per rater per item.
CREATE TABLE ratings (
    item_id       text COLLATE "C" NOT NULL REFERENCES items (item_id),
    rater_id      text COLLATE "C" NOT NULL,
    stars         smallint NOT NULL CHECK (stars BETWEEN 1 AND 10),
    updated_at_ms bigint   NOT NULL,
    PRIMARY KEY (item_id, rater_id)
);
