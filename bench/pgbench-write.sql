-- The service's durable rating write as it was before it went to one round trip: six statements,
-- each a round trip, as the store sent them (PostgresSQL.swift at 33649b8), run by pgbench with
-- the service's pool size of clients (bench/postgres.py). A new rater each time, so the rating is
-- new and the old stars NULL, as in the service's PUT rows; the score key is bound as the
-- service bound the one it computed. {items} is replaced by the item pattern's \set.
{items}
\set r random(1, 2000000000)
\set stars random(1, 5)
BEGIN;
INSERT INTO items (item_id, max_rating) VALUES ('bench-' || :item, 5::smallint)
ON CONFLICT (item_id) DO UPDATE SET item_id = excluded.item_id
RETURNING max_rating, scale_explicit, rating_count, rating_sum, stars_1, stars_2, stars_3, stars_4, stars_5, stars_6, stars_7, stars_8, stars_9, stars_10, review_count, version;
SELECT stars FROM ratings WHERE item_id = 'bench-' || :item AND rater_id = 'pgb' || :client_id || '-' || :r;
INSERT INTO ratings (item_id, rater_id, stars, updated_at_ms) VALUES ('bench-' || :item, 'pgb' || :client_id || '-' || :r, :stars::smallint, 1796000000000::bigint)
ON CONFLICT (item_id, rater_id) DO UPDATE SET stars = excluded.stars, updated_at_ms = excluded.updated_at_ms;
UPDATE items SET
    rating_count = rating_count + (:stars::int IS NOT NULL)::int - (NULL::int IS NOT NULL)::int,
    review_count = review_count + 0::int, version = version + 0::int,
    rating_sum = rating_sum + coalesce(:stars::int, 0) - coalesce(NULL::int, 0),
    score_high = 2305843009213693952::bigint, score_low = 1152921504606846976::bigint,
    stars_1 = stars_1 + (:stars::int IS NOT DISTINCT FROM 1)::int - (NULL::int IS NOT DISTINCT FROM 1)::int,
    stars_2 = stars_2 + (:stars::int IS NOT DISTINCT FROM 2)::int - (NULL::int IS NOT DISTINCT FROM 2)::int,
    stars_3 = stars_3 + (:stars::int IS NOT DISTINCT FROM 3)::int - (NULL::int IS NOT DISTINCT FROM 3)::int,
    stars_4 = stars_4 + (:stars::int IS NOT DISTINCT FROM 4)::int - (NULL::int IS NOT DISTINCT FROM 4)::int,
    stars_5 = stars_5 + (:stars::int IS NOT DISTINCT FROM 5)::int - (NULL::int IS NOT DISTINCT FROM 5)::int,
    stars_6 = stars_6 + (:stars::int IS NOT DISTINCT FROM 6)::int - (NULL::int IS NOT DISTINCT FROM 6)::int,
    stars_7 = stars_7 + (:stars::int IS NOT DISTINCT FROM 7)::int - (NULL::int IS NOT DISTINCT FROM 7)::int,
    stars_8 = stars_8 + (:stars::int IS NOT DISTINCT FROM 8)::int - (NULL::int IS NOT DISTINCT FROM 8)::int,
    stars_9 = stars_9 + (:stars::int IS NOT DISTINCT FROM 9)::int - (NULL::int IS NOT DISTINCT FROM 9)::int,
    stars_10 = stars_10 + (:stars::int IS NOT DISTINCT FROM 10)::int - (NULL::int IS NOT DISTINCT FROM 10)::int
WHERE item_id = 'bench-' || :item
RETURNING max_rating, scale_explicit, rating_count, rating_sum, stars_1, stars_2, stars_3, stars_4, stars_5, stars_6, stars_7, stars_8, stars_9, stars_10, review_count, version;
COMMIT;
