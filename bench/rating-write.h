/*
 * What the two C programs of the benchmark share: the write reference (sqlite-ceiling.c) and the
 * write floor (put-floor-server.c) open their database the same way and write a rating with the
 * same statements, those the SQLite store runs for one new rating
 * (Sources/SQLiteStore/RatingSQL.swift: selectItem, selectRating, upsertRating, applyDelta),
 * prepared once, binding the ranking key the store works out: WAL with synchronous=FULL, 10,000
 * seeded items bench-0 to bench-9999 with one rating each, as the benchmark seeds the service's.
 */
#include <malloc.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static sqlite3 *db;

static void check(int rc, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *statement;
    check(sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, NULL), sql);
    return statement;
}

static char *read_file(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(1); }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    char *text = malloc(size + 1);
    if (fread(text, 1, size, file) != (size_t)size) { perror(path); exit(1); }
    text[size] = 0;
    fclose(file);
    return text;
}

/* The ranking key the store binds for an item of `count` ratings adding up to `sum` on a scale of
   `max_rating` stars, under the standard settings (prior 0.5, weight 10): RatingsCore's
   BayesianScore.key, floor(score * 2^124) in two 62-bit halves, where
   score = (W*P + (sum - count) / (max_rating - 1)) / (W + count), and (W*P + count) / (W + count) on
   a 1-star scale. The real key and not a stand-in: where an item's entry lands in the score index
   decides which pages a commit writes (with a counter for the key, every entry went to the top of
   the index, and a commit of 31 ratings wrote 18.2 WAL frames where the server's write 27.3:
   scripts/count-wal-frames.sh). */
static void score_key(long long count, long long sum, long long max_rating, long long *high, long long *low) {
    const __int128 prior = 5000, prior_scale = 10000, weight = 10; /* the prior in ten-thousandths */
    __int128 numerator, denominator;
    if (max_rating == 1) {
        numerator = weight * prior + count * prior_scale;
        denominator = prior_scale * (weight + count);
    } else {
        __int128 span = max_rating - 1;
        numerator = weight * prior * span + prior_scale * (sum - count);
        denominator = prior_scale * span * (weight + count);
    }
    __int128 shifted = numerator << 62;
    *high = (long long)(shifted / denominator);
    *low = (long long)(((shifted % denominator) << 62) / denominator);
}

/* Opens `path` into `db`, applies the migrations and seeds the 10,000 items, each with one 4-star
   rating by a rater of its own, as the benchmark seeds the service's database. */
static void open_seeded(const char *path, int migration_count, char **migrations) {
    /* At its strongest: no allocation statistics (each malloc would take a global mutex) and no
       connection mutex (one thread), as the service's writer runs, and SQLite's foreign-key
       checks left off (its default; the service turns them on). And glibc never gives the top
       of its heap back: with its default trimming, SQLite's frees and mallocs at that top moved
       the break up and down about twice per rating (220,000 brk calls and 112,000 page faults for
       120,000 ratings), tripling the kernel time per rating (19 us against 7) in some runs and
       not in others. The service's threads allocate from glibc's per-thread arenas, which do not
       move the break. */
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_TOP_PAD, 16 << 20);
    check(sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0), "memstatus");
    check(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL), "open");
    check(sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL), "wal");
    check(sqlite3_exec(db, "PRAGMA synchronous = FULL", NULL, NULL, NULL), "synchronous");
    for (int i = 0; i < migration_count; i++) check(sqlite3_exec(db, read_file(migrations[i]), NULL, NULL, NULL), migrations[i]);
    check(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), "begin");
    sqlite3_stmt *seed = prepare("INSERT INTO items (item_id, max_rating) VALUES (?1, 5)");
    char id[64];
    for (int item = 0; item < 10000; item++) {
        snprintf(id, sizeof id, "bench-%d", item);
        sqlite3_bind_text(seed, 1, id, -1, SQLITE_TRANSIENT);
        check(sqlite3_step(seed), "seed");
        sqlite3_reset(seed);
    }
    sqlite3_finalize(seed);
    check(sqlite3_exec(db, "INSERT INTO ratings (item_id, rater_id, stars, updated_at_ms) "
                           "SELECT item_id, 'seed-' || substr(item_id, 7), 4, unixepoch() * 1000 FROM items "
                           "ORDER BY CAST(substr(item_id, 7) AS INTEGER)", NULL, NULL, NULL), "seed ratings");
    long long high, low;
    score_key(1, 4, 5, &high, &low);
    sqlite3_stmt *aggregates = prepare("UPDATE items SET rating_count = 1, rating_sum = 4, stars_4 = 1, score_high = ?1, score_low = ?2");
    sqlite3_bind_int64(aggregates, 1, high);
    sqlite3_bind_int64(aggregates, 2, low);
    check(sqlite3_step(aggregates), "seed aggregates");
    sqlite3_finalize(aggregates);
    check(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), "commit");
}

#define COLUMNS "max_rating, scale_explicit, rating_count, rating_sum, stars_1, stars_2, stars_3, stars_4, stars_5, " \
                "stars_6, stars_7, stars_8, stars_9, stars_10"

struct rating_statements {
    sqlite3_stmt *select_item, *select_rating, *upsert, *apply_delta;
};

static struct rating_statements prepare_rating_statements(void) {
    struct rating_statements s;
    s.select_item = prepare("SELECT " COLUMNS " FROM items WHERE item_id = ?1");
    s.select_rating = prepare("SELECT stars, updated_at_ms FROM ratings WHERE item_id = ?1 AND rater_id = ?2");
    s.upsert = prepare(
        "INSERT INTO ratings (item_id, rater_id, stars, updated_at_ms) VALUES (?1, ?2, ?3, ?4) "
        "ON CONFLICT (item_id, rater_id) DO UPDATE SET stars = excluded.stars, updated_at_ms = excluded.updated_at_ms");
    char delta[4096] = "UPDATE items SET rating_count = rating_count + (?2 IS NOT NULL) - (?3 IS NOT NULL), "
                       "rating_sum = rating_sum + coalesce(?2, 0) - coalesce(?3, 0), score_high = ?4, score_low = ?5";
    for (int stars = 1; stars <= 10; stars++) {
        char part[128];
        snprintf(part, sizeof part, ", stars_%d = stars_%d + (?2 IS %d) - (?3 IS %d)", stars, stars, stars, stars);
        strcat(delta, part);
    }
    strcat(delta, " WHERE item_id = ?1");
    s.apply_delta = prepare(delta);
    return s;
}

/* One new rating inside the caller's transaction: the item's row and the rater's earlier rating
   read, the rating written, the item's aggregates and ranking key moved, the key worked out from
   the row read, as the store does. */
static void write_rating(struct rating_statements *s, const char *id, const char *rater, int stars, long long now_ms) {
    long long max_rating = 5, count = 0, sum = 0;
    sqlite3_bind_text(s->select_item, 1, id, -1, SQLITE_TRANSIENT);
    while (sqlite3_step(s->select_item) == SQLITE_ROW) {
        max_rating = sqlite3_column_int64(s->select_item, 0);
        count = sqlite3_column_int64(s->select_item, 2);
        sum = sqlite3_column_int64(s->select_item, 3);
    }
    sqlite3_reset(s->select_item);
    long long high, low;
    score_key(count + 1, sum + stars, max_rating, &high, &low);
    sqlite3_bind_text(s->select_rating, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s->select_rating, 2, rater, -1, SQLITE_TRANSIENT);
    while (sqlite3_step(s->select_rating) == SQLITE_ROW) {}
    sqlite3_reset(s->select_rating);
    sqlite3_bind_text(s->upsert, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s->upsert, 2, rater, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(s->upsert, 3, stars);
    sqlite3_bind_int64(s->upsert, 4, now_ms);
    check(sqlite3_step(s->upsert), "upsert");
    sqlite3_reset(s->upsert);
    sqlite3_bind_text(s->apply_delta, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(s->apply_delta, 2, stars);
    sqlite3_bind_null(s->apply_delta, 3);
    sqlite3_bind_int64(s->apply_delta, 4, high);
    sqlite3_bind_int64(s->apply_delta, 5, low);
    while (sqlite3_step(s->apply_delta) == SQLITE_ROW) {}
    sqlite3_reset(s->apply_delta);
}

/* The wall clock in ms, as the server stamps a rating. */
static long long wall_ms(void) {
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    return wall.tv_sec * 1000LL + wall.tv_nsec / 1000000;
}
