"""The summary GET in languages chosen by Accept-Language, beside nginx answering the English
summary's bytes from memory, in alternating rounds; and the time from start to `listening on`
with every language file loaded."""
import os, statistics, subprocess

from benchlib import HOT, Nginx, Server, log, measure_once, median_ratio, remove_database, seed, summarize

# What each run's requests carry in Accept-Language: none (English), a region with digits of its
# own, a tag answered through an alias, and a phone's usual list of weighted ranges.
ASKED = {"en": None, "ar_SA": "ar-SA", "zh_TW": "zh-TW, en;q=0.5", "ru": "ru-RU, ru;q=0.9, en;q=0.8"}


def languages(binary, work, runs, seconds):
    database = os.path.join(work, "languages.sqlite")
    server = Server(binary, database, os.path.join(work, "languages.log"))
    try:
        seed(server.port)
        body = subprocess.run(["curl", "-s", server.base + HOT], capture_output=True, check=True).stdout
        nginx = Nginx(work, body)
        rounds = {"nginx": [], **{name: [] for name in ASKED}}
        try:
            for run in range(runs):
                rounds["nginx"].append(measure_once(nginx.url, seconds=seconds, cpu_pids=nginx.pids))
                # Each round takes the languages in another order, so none always runs last,
                # when the machine has been busiest for longest.
                names = list(ASKED)
                for name in names[run % len(names):] + names[:run % len(names)]:
                    header = ASKED[name]
                    extra = {"script": "accept-language.lua", "env_extra": {"BENCH_LANGUAGE": header}} if header else {}
                    rounds[name].append(measure_once(server.base + HOT, seconds=seconds, cpu_pids=server.pids, **extra))
                log("  " + ", ".join(f"{name} {rounds[name][-1]['rps']:,.0f}" for name in rounds) + " req/s")
        finally:
            nginx.stop()
    finally:
        server.stop()
    result = {name: summarize(name, values) for name, values in rounds.items()}
    result["ratios"] = {name: median_ratio(rounds[name], rounds["nginx"]) for name in ASKED}
    result["summary_body_bytes"] = len(body)
    starts = []
    for run in range(5):
        fresh = os.path.join(work, f"start-{run}.sqlite")
        started = Server(binary, fresh, os.path.join(work, "start.log"))
        starts.append(round(started.ready_ms, 1))
        started.stop()
        remove_database(fresh)
    result["start_to_listening_ms"] = {"median": statistics.median(starts), "runs": starts}
    result["language_files"] = len([n for n in os.listdir(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "locales"))
                                    if n.endswith(".json")])
    return result
