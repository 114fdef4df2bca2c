"""`ratings copy` timed both ways between SQLite and PostgreSQL, beside each engine's own bulk
load of the same ratings (the reference at its strongest: PostgreSQL's COPY through psql's \\copy,
and the sqlite3 shell's .import, C in one transaction)."""
import os, re, sqlite3, statistics, subprocess, time

from benchlib import PG_BIN, PostgresCluster, insert_reviews, log, migrated_for_loading, remove_database

RATINGS, ITEMS, REVIEWS = 1_000_000, 50_000, 100_000
RATING_COLUMNS = "item_id, rater_id, stars, updated_at_ms"


def build_copy_source(binary, path):
    """A SQLite database of RATINGS ratings on ITEMS items (stars spread 1 to 5 by a hash), the
    first REVIEWS of them with a review of about 400 characters, aggregates consistent."""
    db = migrated_for_loading(binary, path)

    def stars(i):
        return (i * 2654435761 >> 7) % 5 + 1
    db.executemany(f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES (?, ?, ?, ?)",
                   ((f"item-{i % ITEMS:06d}", f"rater-{i // ITEMS:03d}", stars(i), 1_700_000_000_000 + i) for i in range(RATINGS)))
    insert_reviews(db, ((f"item-{i % ITEMS:06d}", f"rater-{i // ITEMS:03d}", stars(i), i) for i in range(REVIEWS)))
    per_star = ", ".join(f"sum(stars = {s})" for s in range(1, 6))
    db.execute(f"INSERT INTO items (item_id, max_rating, rating_count, rating_sum, stars_1, stars_2, stars_3, stars_4, stars_5) "
               f"SELECT item_id, 5, count(*), sum(stars), {per_star} FROM ratings GROUP BY item_id")
    db.execute("UPDATE items SET review_count = (SELECT count(*) FROM reviews r WHERE r.item_id = items.item_id)")
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def write_tsv(source, table, path):
    """`table` of the SQLite file as COPY's text format (NULL as \\N; the ids need no escapes)."""
    db = sqlite3.connect(source)
    with open(path, "w") as out:
        for row in db.execute(f"SELECT * FROM {table}"):
            out.write("\t".join("\\N" if value is None else str(value) for value in row) + "\n")
    db.close()


def run_copy(binary, source, target):
    """Runs one copy; returns its wall time and the ratings table's rate from its progress line."""
    started = time.monotonic()
    result = subprocess.run([binary, "copy", "--from", source, "--to", target], capture_output=True, text=True)
    seconds = time.monotonic() - started
    if result.returncode != 0:
        raise SystemExit(f"ratings copy failed: {result.stderr}")
    line = re.search(r"^ratings +([\d,]+) rows in [\d.]+ s, ([\d,]+) rows/s", result.stderr, re.M)
    return {"seconds": round(seconds, 2), "ratings_per_second": int(line.group(2).replace(",", ""))}


def psql(uri, command):
    subprocess.run([f"{PG_BIN}/psql", uri, "-v", "ON_ERROR_STOP=1", "-qc", command], check=True, capture_output=True)


def reference_postgresql(binary, cluster, items_tsv, ratings_tsv):
    """psql's \\copy of the ratings into a migrated database that holds the items: the rate."""
    uri = cluster.new_database()
    subprocess.run([binary, "migrate", "--database", uri], check=True, capture_output=True)
    psql(uri, f"\\copy items FROM '{items_tsv}'")
    started = time.monotonic()
    psql(uri, f"\\copy ratings ({RATING_COLUMNS}) FROM '{ratings_tsv}'")
    return round(RATINGS / (time.monotonic() - started))


def reference_sqlite(binary, source, path, ratings_tsv):
    """The sqlite3 shell's .import of the ratings into a migrated file that holds the items."""
    subprocess.run([binary, "migrate", "--database", path], check=True, capture_output=True)
    db = sqlite3.connect(path)
    db.execute(f"ATTACH '{source}' AS source")
    db.execute("INSERT INTO items SELECT * FROM source.items")
    db.commit()
    db.close()
    started = time.monotonic()
    subprocess.run(["sqlite3", path, ".mode tabs", f".import {ratings_tsv} ratings"], check=True, capture_output=True)
    rate = round(RATINGS / (time.monotonic() - started))
    remove_database(path)
    return rate


def copies(binary, work, runs, seconds):
    source = os.path.join(work, "copy-source.sqlite")
    log(f"building a database of {RATINGS:,} ratings and {REVIEWS:,} reviews")
    build_copy_source(binary, source)
    items_tsv, ratings_tsv = os.path.join(work, "items.tsv"), os.path.join(work, "ratings.tsv")
    write_tsv(source, "items", items_tsv)
    write_tsv(source, "ratings", ratings_tsv)
    os.chmod(work, 0o755)  # the postgres user creates its cluster below it
    cluster = PostgresCluster(work)
    rounds = {"sqlite_to_postgresql": [], "postgresql_to_sqlite": [], "reference_postgresql": [], "reference_sqlite": []}
    try:
        for run in range(runs):
            uri = cluster.new_database()
            rounds["sqlite_to_postgresql"].append(run_copy(binary, source, uri))
            rounds["reference_postgresql"].append(reference_postgresql(binary, cluster, items_tsv, ratings_tsv))
            back = os.path.join(work, f"back-{run}.sqlite")
            rounds["postgresql_to_sqlite"].append(run_copy(binary, uri, back))
            remove_database(back)
            rounds["reference_sqlite"].append(reference_sqlite(binary, source, os.path.join(work, f"reference-{run}.sqlite"), ratings_tsv))
            log(f"  round {run + 1}: into PostgreSQL {rounds['sqlite_to_postgresql'][-1]['ratings_per_second']:,} ratings/s "
                f"(psql \\copy {rounds['reference_postgresql'][-1]:,}), into SQLite {rounds['postgresql_to_sqlite'][-1]['ratings_per_second']:,} "
                f"(sqlite3 .import {rounds['reference_sqlite'][-1]:,})")
    finally:
        cluster.stop()

    def median_of(name, key):
        return statistics.median(r[key] for r in rounds[name])
    result = {"ratings": RATINGS, "reviews": REVIEWS, "items": ITEMS, "rounds": rounds}
    for direction, reference in (("sqlite_to_postgresql", "reference_postgresql"), ("postgresql_to_sqlite", "reference_sqlite")):
        result[direction] = {"seconds": median_of(direction, "seconds"), "ratings_per_second": median_of(direction, "ratings_per_second"),
                             "reference_ratings_per_second": statistics.median(rounds[reference]),
                             "ratio": round(statistics.median(r["ratings_per_second"] / ref
                                                              for r, ref in zip(rounds[direction], rounds[reference])), 2)}
    return result
