-- The service's summary read (PostgresSQL.selectItem), run by pgbench with the service's pool size
-- of clients (bench/postgres.py) on the items the service's GET row reads.
\set item 37
SELECT max_rating, scale_explicit, rating_count, rating_sum, stars_1, stars_2, stars_3, stars_4, stars_5, stars_6, stars_7, stars_8, stars_9, stars_10, review_count, version FROM items WHERE item_id = 'bench-' || :item;
