-- The item owner's one public reply to a review: kept on the review's row, so it goes with the
-- review and a list reads it with no second lookup. All three NULL without a reply; the author
-- is the replying token's subject, NULL where the service runs without tokens.
ALTER TABLE reviews ADD COLUMN reply_body text;
ALTER TABLE reviews ADD COLUMN reply_author text COLLATE "C";
ALTER TABLE reviews ADD COLUMN reply_updated_at_ms bigint;
