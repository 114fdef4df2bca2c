-- No item counts a rating above its scale. A rating write checks its stars against the item's
-- scale inside the statement that moves the counts (one round trip, no read before it), so the
-- database itself refuses a count in a bucket past `max_rating`; the service answers that
-- refusal as the 422 it would have given. Every row already holds it: a scale changes only
-- while the item has no ratings.
ALTER TABLE items ADD CONSTRAINT items_stars_within_scale CHECK (
    (max_rating >= 2 OR stars_2 = 0) AND (max_rating >= 3 OR stars_3 = 0) AND (max_rating >= 4 OR stars_4 = 0)
    AND (max_rating >= 5 OR stars_5 = 0) AND (max_rating >= 6 OR stars_6 = 0) AND (max_rating >= 7 OR stars_7 = 0)
    AND (max_rating >= 8 OR stars_8 = 0) AND (max_rating >= 9 OR stars_9 = 0) AND (max_rating >= 10 OR stars_10 = 0)
);
