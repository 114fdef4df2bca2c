"""The C programs of the benchmark write what the store writes: the ranking key bench/rating-write.h
binds for each rating is the one RatingsCore computes, checked against the table the Swift tests
check BayesianScore.key against (Tests/RatingsCoreTests/RankingTests.swift, `standardKeys`), both
worked out alone and as stored by a rating written through the reference's own statements; their
seed is the benchmark's; and benchlib.wal_frames, with which scripts/count-wal-frames.sh compares
the pages the reference and the server write, counts frames and commits right."""

import os
import re
import sqlite3
import subprocess
import tempfile
import unittest

import benchlib

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)

HARNESS = r"""
#include "rating-write.h"
int main(int argc, char **argv) {
    if (argv[1][0] == 'k') { /* k COUNT SUM MAX: the key alone */
        long long high, low;
        score_key(atoll(argv[2]), atoll(argv[3]), atoll(argv[4]), &high, &low);
        printf("%lld %lld\n", high, low);
        return 0;
    }
    /* w DATABASE STARS MIGRATION...: one rating more on bench-1 in a seeded database */
    open_seeded(argv[2], argc - 4, argv + 4);
    struct rating_statements statements = prepare_rating_statements();
    check(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), "begin");
    write_rating(&statements, "bench-1", "rater-1", atoi(argv[3]), wall_ms());
    check(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), "commit");
    sqlite3_close(db);
    return 0;
}
"""


def swift_table():
    """The rows of `standardKeys`: (count, sum, max_rating, high, low)."""
    with open(os.path.join(ROOT, "Tests", "RatingsCoreTests", "RankingTests.swift")) as file:
        source = file.read()
    table = re.search(r"static let standardKeys[^=]*= \[(.*?)\n    \]", source, re.S).group(1)
    rows = [tuple(int(number.replace("_", "")) for number in row)
            for row in re.findall(r"\(([\d_]+), ([\d_]+), ([\d_]+), \(([\d_]+), ([\d_]+)\)\)", table)]
    if len(rows) < 3:
        raise AssertionError(f"read only {len(rows)} rows of standardKeys")
    return rows


class ReferenceKeyTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.TemporaryDirectory()
        source = os.path.join(cls.work.name, "harness.c")
        with open(source, "w") as file:
            file.write(HARNESS)
        cls.binary = os.path.join(cls.work.name, "harness")
        subprocess.run(["gcc", "-O2", "-I", BENCH, "-o", cls.binary, source, "-lsqlite3"], check=True)

    @classmethod
    def tearDownClass(cls):
        cls.work.cleanup()

    def test_key_matches_the_store(self):
        for count, total, max_rating, high, low in swift_table():
            output = subprocess.run([self.binary, "k", str(count), str(total), str(max_rating)],
                                    capture_output=True, text=True, check=True).stdout.split()
            self.assertEqual([int(output[0]), int(output[1])], [high, low], f"count {count}, sum {total}, {max_rating} stars")

    def test_a_written_rating_stores_the_store_key(self):
        # The seeded 4-star rating and this one's 4 stars: two ratings adding up to 8.
        table = swift_table()
        two_four_star = [row for row in table if row[:3] == (2, 8, 5)]
        self.assertEqual(len(two_four_star), 1, "standardKeys has the row of two 4-star ratings")
        database = os.path.join(self.work.name, "reference.sqlite")
        subprocess.run([self.binary, "w", database, "4", *benchlib.SQLiteCeiling.migration_files()], check=True)
        one_four_star = [row for row in table if row[:3] == (1, 4, 5)]
        with sqlite3.connect(database) as connection:
            stored = connection.execute("SELECT rating_count, rating_sum, score_high, score_low FROM items "
                                        "WHERE item_id = 'bench-1'").fetchone()
            seeded = connection.execute("SELECT count(*), min(rating_count), max(rating_count), count(DISTINCT score_high) "
                                        "FROM items WHERE item_id != 'bench-1'").fetchone()
            seeded_key = connection.execute("SELECT score_high, score_low FROM items WHERE item_id = 'bench-2'").fetchone()
            raters = connection.execute("SELECT count(*) FROM ratings WHERE rater_id LIKE 'seed-%' AND stars = 4 "
                                        "AND updated_at_ms > 1600000000000").fetchone()[0]
        self.assertEqual(stored, (2, 8, *two_four_star[0][3:]))
        self.assertEqual(seeded, (9999, 1, 1, 1))
        self.assertEqual(seeded_key, one_four_star[0][3:])
        self.assertEqual(raters, 10000)


def hex_escaped(data):
    return "".join(f"\\x{byte:02x}" for byte in data)


class WALFrameCountTests(unittest.TestCase):
    """benchlib.wal_frames, on lines as `strace -f -y -xx -s 8 -e trace=pwrite64` writes them."""

    def line(self, path, header, length, offset=32):
        return f'9636  pwrite64(7<{hex_escaped(path)}>, "{hex_escaped(header)}"..., {length}, {offset}) = {length}'

    def test_counts_frames_and_the_commits_that_end_them(self):
        wal, database = b"/tmp/x/server.sqlite-wal", b"/tmp/x/server.sqlite"
        page = bytes([0, 0, 0, 7, 0, 0, 0, 0])    # page 7, not the end of a commit
        commit = bytes([0, 0, 0, 9, 0, 0, 1, 44])  # page 9, the database now 300 pages: a commit
        lines = [
            self.line(wal, page, 24), self.line(wal, b"\x0d" * 8, 4096),
            self.line(wal, commit, 24) + " <unfinished ...>", self.line(wal, b"\x0d" * 8, 4096),
            self.line(database, commit, 24),       # not the WAL
            self.line(wal, bytes(8), 32, offset=0),  # the WAL's own header, not a frame
            "9637  <... pwrite64 resumed>)           = 24",
        ]
        self.assertEqual(benchlib.wal_frames("\n".join(lines)), (2, 1))


if __name__ == "__main__":
    unittest.main()
