"""Checks of the benchmark's arithmetic that a reader of docs/performance.md would make: that a
load's CPU figures add up (user and kernel to the total, the threads to their part of it), in
every stored result as rendered, and that no figure is said to have moved when it did not.
Run by scripts/test.sh: python3 -m unittest discover --start-directory bench --pattern 'test_*.py'."""
import json, os, re, unittest

from benchlib import median_cpu_run
import report

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")


def run(user, system, loops, writer):
    return {"rps": 1.0, "user_us": user, "system_us": system, "loops_us": loops, "loops_user_us": loops / 2,
            "writer_us": writer, "writer_user_us": writer / 2}


class MedianCPURunTests(unittest.TestCase):
    # Each figure's own median would be user 14.69 (third run) and system 15.31 (first run): a
    # total of 30.0 that no run had, and loops 14.82 + writer 15.3 left -0.1 µs for the others.
    RUNS = [run(15.88, 15.31, 14.82, 15.7), run(14.69, 16.4, 15.33, 15.3), run(14.39, 13.63, 12.68, 14.87)]

    def test_takes_every_figure_from_the_run_with_the_median_total(self):
        self.assertEqual(median_cpu_run(self.RUNS), {key: self.RUNS[1][key] for key in self.RUNS[1] if key != "rps"})

    def test_an_even_number_of_runs_takes_the_lower_middle(self):
        self.assertEqual(median_cpu_run(self.RUNS[1:])["user_us"], 14.39)

    def test_leaves_out_what_the_runs_do_not_measure(self):
        self.assertEqual(median_cpu_run([{"user_us": 1.0, "system_us": 2.0}]), {"user_us": 1.0, "system_us": 2.0})


class StealEffectTests(unittest.TestCase):
    @staticmethod
    def runs(*steals):
        return {"runs": [{**run(4.0, 4.0, 0, 0), "rps": 100.0 + index, "steal_pct": steal} for index, steal in enumerate(steals)]}

    def test_a_side_whose_runs_had_the_same_steal_is_not_said_to_have_moved(self):
        text = report.steal_effect({"nginx": self.runs(0.0, 0.1, 0.0), "get_summary": self.runs(0.2, 0.0, 0.0)},
                                   {"put_rating": self.runs(0.0, 0.0, 0.0)})[1]
        self.assertIn("the `PUT`'s runs all had 0.0 % steal", text)
        self.assertIn("nginx 8.0 → 8.0 µs at 100 → 101 req/s (0.0 → 0.1 % steal)", text)


class SoakRowTests(unittest.TestCase):
    def test_the_soak_row_sets_the_growth_beside_the_two_peaks_it_compares(self):
        # Run 23's soak: RSS highest in the first fifth, lower after it (the whole run's peak was
        # the first fifth's, which the row used to show beside a negative growth).
        soak = {"rss_first_fifth_mib": 44.7, "rss_peak_mib": 44.7, "growth_pct": -11.8}
        self.assertAlmostEqual(report.soak_rest_peak_mib(soak), 39.4, delta=0.05)
        self.assertEqual(report.soak_rest_peak_mib({**soak, "rss_rest_peak_mib": 39.5}), 39.5)


class RenderedResultTests(unittest.TestCase):
    def test_every_stored_result_splits_the_put_into_parts_that_add_up(self):
        checked = 0
        for name in sorted(os.listdir(RESULTS)):
            if not name.endswith("-full.json"):
                continue
            with open(os.path.join(RESULTS, name)) as f:
                text = report.render(json.load(f))
            split = re.search(r"Of the `PUT`'s ([0-9.]+) µs, the event loops .*? took ([0-9.]+) µs, .*?"
                              r"the SQLite writer \(thread `sqlite-writer`\) ([0-9.]+) µs"
                              r"(?: and its WAL syncer \(thread `sqlite-sync`\) ([0-9.]+) µs)?, .*?the access log\) (-?[0-9.]+) µs", text)
            if not split:
                continue
            total, loops, writer, syncer, others = (float(group or 0) for group in split.groups())
            with self.subTest(result=name):
                self.assertGreaterEqual(others, 0)
                self.assertAlmostEqual(loops + writer + syncer + others, total, delta=0.15)
            checked += 1
        self.assertGreater(checked, 0, "no stored result splits a PUT by thread")


if __name__ == "__main__":
    unittest.main()


class AttacksTests(unittest.TestCase):
    """The attacks table says what the stored figures say: each JSON ratio is its body's median
    req/s over the flat string's, and the memory row is the run's own."""

    def test_every_stored_attacks_result_renders_its_own_ratios(self):
        names = [name for name in os.listdir(RESULTS) if name.endswith("-attacks.json")]
        self.assertTrue(names, "no attacks result is stored")
        for name in names:
            with open(os.path.join(RESULTS, name)) as f:
                result = json.load(f)
            attacks, text = result["attacks"], report.render_attacks(result)
            flat = attacks["json"]["flat_string"]["rps"]
            for body in ("members_1024", "members_7900"):
                ratio = attacks["json"][body]["rps"] / flat
                self.assertAlmostEqual(attacks["json"]["ratios"][body], ratio, places=3)
                self.assertIn(f"{ratio:.2f}× the req/s", text)
            unread = attacks["unread_answers"]
            self.assertIn(f"| {unread['rss_peak_during_mib']} MiB |", text)
            self.assertAlmostEqual(unread["ratios"]["rps"], unread["probe_during"]["rps"] / unread["probe_before"]["rps"], places=3)
