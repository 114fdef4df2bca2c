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
 * server's own group size (scripts/count-wal-frames.sh runs it so). BENCH_ITEMS (from the
 * environment) chooses the items as bench/items.lua does: "sequential" (the default, the
 * counter modulo 10,000), "random" (uniform) or "zipf" (s = 1.01, item 0 the most rated).
 *
 *   sqlite-ceiling DATABASE SECONDS RATINGS MIGRATION.sql...
 *   prints: ratings_per_second=N commits=N user_us=N system_us=N (CPU per rating, writes only)
 *           commit_p99_ms=N commit_max_ms=N (each commit from BEGIN to COMMIT's return: how long a
 *           group waits here, the disk's own stalls included)
 */
#include <math.h>
#include <sys/resource.h>
#include <time.h>

#include "rating-write.h"

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

#define ITEMS 10000

/* Zipf's cumulative weights, 1/k^1.01 for ranks 1..ITEMS, normalized. */
static double zipf_cumulative[ITEMS];

static void prepare_zipf(void) {
    double total = 0;
    for (int k = 1; k <= ITEMS; k++) zipf_cumulative[k - 1] = (total += 1 / pow(k, 1.01));
    for (int k = 0; k < ITEMS; k++) zipf_cumulative[k] /= total;
}

/* The next item's number under `pattern`: 's'equential, 'r'andom or 'z'ipf. */
static long next_item(char pattern, long written) {
    if (pattern == 'r') return random() % ITEMS;
    if (pattern == 'z') {
        double u = random() / ((double)RAND_MAX + 1);
        int low = 0, high = ITEMS - 1;
        while (low < high) {
            int middle = (low + high) / 2;
            if (zipf_cumulative[middle] < u) low = middle + 1; else high = middle;
        }
        return low;
    }
    return written % ITEMS;
}

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: %s DATABASE SECONDS RATINGS MIGRATION.sql...\n", argv[0]); return 2; }
    open_seeded(argv[1], argc - 4, argv + 4);
    struct rating_statements statements = prepare_rating_statements();
    char id[64];

    double user_before = cpu_seconds(1), system_before = cpu_seconds(0);
    double seconds = atof(argv[2]), started = now();
    long limit = atol(argv[3]), written = 0, commits = 0;
    char rater[96];
    const char *rater_prefix = getenv("RATER_PREFIX") ? getenv("RATER_PREFIX") : "c-";
    if (strlen(rater_prefix) > 64) { fprintf(stderr, "RATER_PREFIX is too long\n"); return 2; }
    int per_commit = getenv("RATINGS_PER_COMMIT") ? atoi(getenv("RATINGS_PER_COMMIT")) : 64;
    if (per_commit < 1) { fprintf(stderr, "RATINGS_PER_COMMIT must be a whole number from 1\n"); return 2; }
    const char *items = getenv("BENCH_ITEMS") ? getenv("BENCH_ITEMS") : "sequential";
    char pattern = strcmp(items, "random") == 0 ? 'r' : strcmp(items, "zipf") == 0 ? 'z' : strcmp(items, "sequential") == 0 ? 's' : 0;
    if (!pattern) { fprintf(stderr, "BENCH_ITEMS must be sequential, random or zipf\n"); return 2; }
    if (pattern == 'z') prepare_zipf();
    srandom((unsigned)wall_ms());
    long long now_ms = wall_ms();
    while (now() - started < seconds && (limit == 0 || written < limit) && commits < MAX_COMMITS) {
        double commit_started = now();
        check(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), "begin");
        for (int i = 0; i < per_commit; i++, written++) {
            snprintf(id, sizeof id, "bench-%ld", next_item(pattern, written));
            snprintf(rater, sizeof rater, "%s%ld", rater_prefix, written);
            write_rating(&statements, id, rater, (int)(written % 5) + 1, now_ms);
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
