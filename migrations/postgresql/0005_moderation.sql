-- When a review entered its status (for a pending one: since when it waits, the queue's order),
-- and how many moderator decisions it has had (a flag counts toward the threshold only in the
-- round it was placed in, so each decision starts a new round). Reviews written before
-- moderation existed are published since they were written.
ALTER TABLE reviews ADD COLUMN status_since_ms bigint NOT NULL DEFAULT 0;
UPDATE reviews SET status_since_ms = created_at_ms;
ALTER TABLE reviews ADD COLUMN decisions bigint NOT NULL DEFAULT 0 CHECK (decisions >= 0);
-- The moderation queue: pending reviews only, longest waiting first, ties by item and rater.
CREATE INDEX reviews_queue ON reviews (status_since_ms, item_id, rater_id) WHERE status = 'pending';

-- Flags: one per flagger per review, gone with the review. `after_decisions` is the review's
-- `decisions` when the flag was first placed (a replaced flag keeps it), so the flags toward the
-- threshold are those whose `after_decisions` equals the review's `decisions`.
CREATE TABLE review_flags (
    item_id         text COLLATE "C" NOT NULL,
    rater_id        text COLLATE "C" NOT NULL,
    flagger_id      text COLLATE "C" NOT NULL,
    reason          text   NOT NULL CHECK (reason IN ('spam', 'offensive', 'off-topic', 'personal-information', 'fake', 'other')),
    note            text,
    after_decisions bigint NOT NULL CHECK (after_decisions >= 0),
    created_at_ms   bigint NOT NULL,
    updated_at_ms   bigint NOT NULL,
    PRIMARY KEY (item_id, rater_id, flagger_id),
    FOREIGN KEY (item_id, rater_id) REFERENCES reviews (item_id, rater_id) ON DELETE CASCADE
);
-- The flags a rater placed, for erasure.
CREATE INDEX review_flags_by_flagger ON review_flags (flagger_id);

-- Every decision and automatic change of a review's status, in the order they were made. Not
-- tied to the review's row: removing a review's text keeps its history (a rewritten review
-- shows it again); erasing its author removes it. The service only ever appends here.
CREATE TABLE moderation_history (
    entry_id  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    item_id   text COLLATE "C" NOT NULL,
    rater_id  text COLLATE "C" NOT NULL,
    status    text   NOT NULL CHECK (status IN ('published', 'pending', 'rejected')),
    previous  text   NOT NULL CHECK (previous IN ('published', 'pending', 'rejected')),
    reason    text,
    moderator text COLLATE "C",
    at_ms     bigint NOT NULL
);
CREATE INDEX moderation_history_by_review ON moderation_history (item_id, rater_id, entry_id);
-- The history of a rater's reviews, for erasure.
CREATE INDEX moderation_history_by_author ON moderation_history (rater_id);
