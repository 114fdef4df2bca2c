/*
 * The ceiling of a durable rating write on this machine: the statements the SQLite store runs for
 * one new rating (Sources/SQLiteStore/RatingSQL.swift: selectItem, selectRating, upsertRating,
 * applyDelta), prepared once, straight on SQLite from C, WAL with synchronous=FULL, 64 ratings per
 * commit, each rating by a new rater on one of 10,000 seeded items, as bench/put-ratings.lua
 * writes them through the server: the rater ids are RATER_PREFIX (from the environment, "c-" by
 * default) and a counter, and the benchmark passes the prefix the server's raters just had, so both
 * write rows of one size. It stops after SECONDS, or once it has written RATINGS (rounded
 * up to whole commits) when RATINGS is not 0: the benchmark has it write as many ratings as the
 * server has just written into a database as fresh as its own. RATINGS_PER_COMMIT (from the
 * environment, 64 by default, which the benchmark keeps) sets the group size for a comparison at the
 * server's own group size (scripts/count-per-request.sh prints it as requests per WAL sync).
 *
 *   sqlite-ceiling DATABASE SECONDS RATINGS MIGRATION.sql...
 *   prints: ratings_per_second=N commits=N user_us=N system_us=N (CPU per rating, writes only)
 *           commit_p99_ms=N commit_max_ms=N (each commit from BEGIN to COMMIT's return: how long a
 *           group waits here, the disk's own stalls included)
 */
#include <malloc.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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

static double cpu_seconds(int user) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    struct timeval time = user ? usage.ru_utime : usage.ru_stime;
    return time.tv_sec + time.tv_usec / 1e6;
}

/* Each commit's duration in ms, for the percentiles; the run stops before it outgrows this. */
#define MAX_COMMITS 200000
static double commit_ms[MAX_COMMITS];

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return time.tv_sec + time.tv_nsec / 1e9;
}

#define COLUMNS "max_rating, scale_explicit, rating_count, rating_sum, stars_1, stars_2, stars_3, stars_4, stars_5, " \
                "stars_6, stars_7, stars_8, stars_9, stars_10"

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: %s DATABASE SECONDS RATINGS MIGRATION.sql...\n", argv[0]); return 2; }
    /* At its strongest: no allocation statistics (each malloc would take a global mutex) and no
       connection mutex (one thread), as the service's writer runs. And glibc never gives the top
       of its heap back: with its default trimming, SQLite's frees and mallocs at that top moved
       the break up and down about twice per rating (220,000 brk calls and 112,000 page faults for
       120,000 ratings), tripling the kernel time per rating (19 us against 7) in some runs and
       not in others. The service's threads allocate from glibc's per-thread arenas, which do not
       move the break. */
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_TOP_PAD, 16 << 20);
    check(sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0), "memstatus");
    check(sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL), "open");
    check(sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL), "wal");
    check(sqlite3_exec(db, "PRAGMA synchronous = FULL", NULL, NULL, NULL), "synchronous");
    for (int i = 4; i < argc; i++) check(sqlite3_exec(db, read_file(argv[i]), NULL, NULL, NULL), argv[i]);
    check(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), "begin");
    sqlite3_stmt *seed = prepare("INSERT INTO items (item_id, max_rating) VALUES (?1, 5)");
    char id[64];
    for (int item = 0; item < 10000; item++) {
        snprintf(id, sizeof id, "bench-%d", item);
        sqlite3_bind_text(seed, 1, id, -1, SQLITE_TRANSIENT);
        check(sqlite3_step(seed), "seed");
        sqlite3_reset(seed);
    }
    check(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), "commit");

    sqlite3_stmt *select_item = prepare("SELECT " COLUMNS " FROM items WHERE item_id = ?1");
    sqlite3_stmt *select_rating = prepare("SELECT stars, updated_at_ms FROM ratings WHERE item_id = ?1 AND rater_id = ?2");
    sqlite3_stmt *upsert = prepare(
        "INSERT INTO ratings (item_id, rater_id, stars, updated_at_ms) VALUES (?1, ?2, ?3, ?4) "
        "ON CONFLICT (item_id, rater_id) DO UPDATE SET stars = excluded.stars, updated_at_ms = excluded.updated_at_ms");
    char delta[4096] = "UPDATE items SET rating_count = rating_count + (?2 IS NOT NULL) - (?3 IS NOT NULL), "
                       "rating_sum = rating_sum + coalesce(?2, 0) - coalesce(?3, 0), score_high = ?4, score_low = ?5";
    for (int s = 1; s <= 10; s++) {
        char part[128];
        snprintf(part, sizeof part, ", stars_%d = stars_%d + (?2 IS %d) - (?3 IS %d)", s, s, s, s);
        strcat(delta, part);
    }
    strcat(delta, " WHERE item_id = ?1");
    sqlite3_stmt *apply_delta = prepare(delta);

    double user_before = cpu_seconds(1), system_before = cpu_seconds(0);
    double seconds = atof(argv[2]), started = now();
    long limit = atol(argv[3]), written = 0, commits = 0;
    char rater[96];
    const char *rater_prefix = getenv("RATER_PREFIX") ? getenv("RATER_PREFIX") : "c-";
    if (strlen(rater_prefix) > 64) { fprintf(stderr, "RATER_PREFIX is too long\n"); return 2; }
    int per_commit = getenv("RATINGS_PER_COMMIT") ? atoi(getenv("RATINGS_PER_COMMIT")) : 64;
    if (per_commit < 1) { fprintf(stderr, "RATINGS_PER_COMMIT must be a whole number from 1\n"); return 2; }
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    long long now_ms = wall.tv_sec * 1000LL + wall.tv_nsec / 1000000; /* as the server stamps a rating */
    while (now() - started < seconds && (limit == 0 || written < limit) && commits < MAX_COMMITS) {
        double commit_started = now();
        check(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), "begin");
        for (int i = 0; i < per_commit; i++, written++) {
            snprintf(id, sizeof id, "bench-%ld", written % 10000);
            snprintf(rater, sizeof rater, "%s%ld", rater_prefix, written);
            int stars = (int)(written % 5) + 1;
            sqlite3_bind_text(select_item, 1, id, -1, SQLITE_TRANSIENT);
            while (sqlite3_step(select_item) == SQLITE_ROW) {}
            sqlite3_reset(select_item);
            sqlite3_bind_text(select_rating, 1, id, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(select_rating, 2, rater, -1, SQLITE_TRANSIENT);
            while (sqlite3_step(select_rating) == SQLITE_ROW) {}
            sqlite3_reset(select_rating);
            sqlite3_bind_text(upsert, 1, id, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(upsert, 2, rater, -1, SQLITE_TRANSIENT);
            sqlite3_bind_int(upsert, 3, stars);
            sqlite3_bind_int64(upsert, 4, now_ms);
            check(sqlite3_step(upsert), "upsert");
            sqlite3_reset(upsert);
            sqlite3_bind_text(apply_delta, 1, id, -1, SQLITE_TRANSIENT);
            sqlite3_bind_int(apply_delta, 2, stars);
            sqlite3_bind_null(apply_delta, 3);
            sqlite3_bind_int64(apply_delta, 4, written);
            sqlite3_bind_int64(apply_delta, 5, written);
            while (sqlite3_step(apply_delta) == SQLITE_ROW) {}
            sqlite3_reset(apply_delta);
        }
        check(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), "commit");
        commit_ms[commits++] = (now() - commit_started) * 1000;
    }
    double elapsed = now() - started;
    long per = written ? written : 1; /* a run that wrote nothing prints zeros, not infinities */
    printf("ratings_per_second=%.0f commits=%ld user_us=%.2f system_us=%.2f", written / elapsed, commits,
           (cpu_seconds(1) - user_before) * 1e6 / per, (cpu_seconds(0) - system_before) * 1e6 / per);
    qsort(commit_ms, commits, sizeof commit_ms[0], by_value);
    printf(" commit_p99_ms=%.2f commit_max_ms=%.2f\n", commits ? commit_ms[commits * 99 / 100] : 0.0,
           commits ? commit_ms[commits - 1] : 0.0);
    sqlite3_close(db);
    return 0;
}
