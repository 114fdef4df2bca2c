"""The PostgreSQL engine against PostgreSQL itself: the service's summary GET and durable PUT
beside pgbench running the service's own statements on the same database with the pool's number
of clients (bench/pgbench-select.sql; bench/pgbench-write.sql, the six-statement write the store
sent before it went to one round trip), in alternating rounds, the PUTs on uniformly random
items and on Zipf-popular ones, and once more with pgbench's number of connections for the
latency, and the other hot writes (a review PUT, a helpfulness vote PUT); then the GET and PUT
with pools of 2, 5, 10 and 20 connections, two replicas on one database, and the erasure stall.
The cluster is on this machine with fsync on; the service is pinned to one core, wrk and pgbench
to the other, PostgreSQL free to use both."""
import glob, os, re, shutil, statistics, subprocess

from benchlib import (BENCH, HOT, LOAD_CPU, PG_BIN, PostgresCluster, Server, erasure_stall, log, measure_once, median_ratio, seed,
                      seed_reviews, summarize, wrk_together)

POOL = 10  # the service's default --database-pool
POOL_SIZES = (2, 5, 10, 20)
# How the PUT rows and pgbench's write choose items: pgbench's \set for each pattern of
# bench/items.lua's BENCH_ITEMS.
PATTERNS = {"random": r"\set item random(0, 9999)", "zipf": r"\set item random_zipfian(0, 9999, 1.01)"}


def postgresql(binary, work, runs, seconds):
    cluster = PostgresCluster(work)
    try:
        uri = cluster.new_database()
        rounds = {"get_summary": [], "pgbench_select": [], **{f"put_{p}": [] for p in PATTERNS}, **{f"pgbench_write_{p}": [] for p in PATTERNS},
                  "put_random_pool_clients": [], "put_review_random": [], "put_vote_random": []}
        one = Server(binary, uri, os.path.join(work, "pg-1.log"))
        try:
            seed(one.port)
            seed_reviews(one.port)
            for run in range(runs):
                rounds["get_summary"].append(measure_once(one.base + HOT, seconds=seconds, cpu_pids=one.pids))
                rounds["pgbench_select"].append(pgbench(cluster, uri, os.path.join(BENCH, "pgbench-select.sql"), seconds, work))
                for pattern in PATTERNS:
                    rounds[f"put_{pattern}"].append(measure_once(one.base + "/", seconds=seconds, script="put-ratings.lua", run=f"pg{run}{pattern[0]}",
                                                                 env_extra={"BENCH_ITEMS": pattern}))
                    rounds[f"pgbench_write_{pattern}"].append(pgbench(cluster, uri, write_script(pattern, work), seconds, work))
                # Latency is compared at pgbench's concurrency: as many connections as it has clients.
                rounds["put_random_pool_clients"].append(measure_once(one.base + "/", connections=POOL, seconds=seconds, script="put-ratings.lua",
                                                                      run=f"pg{run}c", env_extra={"BENCH_ITEMS": "random"}))
                # The other hot writes: a review (with its rating) and a helpfulness vote, on random items.
                for name, script in (("put_review_random", "put-reviews.lua"), ("put_vote_random", "put-votes.lua")):
                    rounds[name].append(measure_once(one.base + "/", seconds=seconds, script=script, run=f"pg{run}{name[4]}",
                                                     env_extra={"BENCH_ITEMS": "random"}))
                log("  " + ", ".join(f"{name} {values[-1]['rps']:,.0f}" for name, values in rounds.items()) + " req/s")
        finally:
            one.stop()
        result = {name: summarize(f"pg {name}", values) for name, values in rounds.items()}
        result["ratios"] = {"get_summary_vs_pgbench_select": median_ratio(rounds["get_summary"], rounds["pgbench_select"]),
                            **{f"put_{p}_vs_pgbench_write": median_ratio(rounds[f"put_{p}"], rounds[f"pgbench_write_{p}"]) for p in PATTERNS},
                            **{f"put_{p}_p99_vs_pgbench_write": median_ratio(rounds[f"put_{p}"], rounds[f"pgbench_write_{p}"], key="p99_ms")
                               for p in PATTERNS},
                            "put_random_pool_clients_p99_vs_pgbench_write": median_ratio(rounds["put_random_pool_clients"],
                                                                                         rounds["pgbench_write_random"], key="p99_ms")}
        result["pools"] = pool_sizes(binary, uri, work, runs, seconds)
        result["two_replicas"] = two_replicas(binary, uri, work, runs, seconds)
        result["erasure"] = erasure_stall(binary, cluster.new_database(), work, "postgresql")
        return result
    finally:
        cluster.stop()


def pool_sizes(binary, uri, work, runs, seconds):
    """The summary GET and the random-item PUT with each pool size, the sizes in another order
    each round."""
    rounds = {(size, verb): [] for size in POOL_SIZES for verb in ("get", "put")}
    for run in range(runs):
        order = POOL_SIZES[run % len(POOL_SIZES):] + POOL_SIZES[:run % len(POOL_SIZES)]
        for size in order:
            server = Server(binary, uri, os.path.join(work, f"pg-pool-{size}.log"), extra=("--database-pool", str(size)))
            try:
                rounds[(size, "get")].append(measure_once(server.base + HOT, seconds=seconds))
                rounds[(size, "put")].append(measure_once(server.base + "/", seconds=seconds, script="put-ratings.lua", run=f"pool{size}r{run}",
                                                          env_extra={"BENCH_ITEMS": "random"}))
            finally:
                server.stop()
        log("  pools: " + ", ".join(f"{size} GET {rounds[(size, 'get')][-1]['rps']:,.0f} PUT {rounds[(size, 'put')][-1]['rps']:,.0f}"
                                    for size in POOL_SIZES) + " req/s")
    return {str(size): {"get_summary": summarize(f"pg pool {size} get", rounds[(size, "get")]),
                        "put_random": summarize(f"pg pool {size} put", rounds[(size, "put")])} for size in POOL_SIZES}


def two_replicas(binary, uri, work, runs, seconds):
    """The GET and the random-item PUT through two replicas on the one database at once."""
    servers = [Server(binary, uri, os.path.join(work, f"pg-replica-{index}.log")) for index in range(2)]
    try:
        bases = [server.base for server in servers]
        return {"get_summary": summarize("pg x2 get", [wrk_together([b + HOT for b in bases], 64, seconds) for _ in range(runs)]),
                "put_random": summarize("pg x2 put", [wrk_together([b + "/" for b in bases], 64, seconds, "put-ratings.lua", f"pg2{r}",
                                                                  env_extra={"BENCH_ITEMS": "random"}) for r in range(runs)])}
    finally:
        for server in servers:
            server.stop()


def write_script(pattern, work):
    """bench/pgbench-write.sql with the pattern's item choice."""
    path = os.path.join(work, f"pgbench-write-{pattern}.sql")
    with open(os.path.join(BENCH, "pgbench-write.sql")) as template, open(path, "w") as out:
        out.write(template.read().replace("{items}", PATTERNS[pattern]))
    return path


def pgbench(cluster, uri, script, seconds, work):
    """One pgbench run of `script` with the pool's number of clients, prepared statements, pinned
    where wrk runs; transactions a second, and the latency percentiles from its per-transaction
    log (pgbench reports only the mean)."""
    logs = os.path.join(work, "pgbench-logs")
    shutil.rmtree(logs, ignore_errors=True)
    os.makedirs(logs)
    database = uri.rsplit("/", 1)[1]
    output = subprocess.run(["taskset", "-c", LOAD_CPU, f"{PG_BIN}/pgbench", "-h", "127.0.0.1", "-p", str(cluster.port), "-U", "postgres",
                             "-n", "-M", "prepared", "-c", str(POOL), "-j", "1", "-T", str(seconds), "-f", script,
                             "-l", "--log-prefix", os.path.join(logs, "tx"), database],
                            capture_output=True, text=True, cwd=logs, timeout=seconds + 120)
    if output.returncode != 0:
        raise SystemExit(f"pgbench failed:\n{output.stdout}\n{output.stderr}")
    tps = float(re.search(r"tps = ([0-9.]+) \(without initial connection time\)", output.stdout).group(1))
    failed = int(m.group(1)) if (m := re.search(r"number of failed transactions: (\d+)", output.stdout)) else 0
    # Each line: client, transaction number, latency in µs, script, epoch seconds, µs.
    latencies = sorted(int(line.split()[2]) for path in glob.glob(os.path.join(logs, "tx*")) for line in open(path) if line.strip())
    def percentile(share):
        return latencies[min(len(latencies) - 1, int(share * len(latencies)))] / 1000
    return {"rps": tps, "p50_ms": percentile(0.5), "p99_ms": percentile(0.99), "max_ms": latencies[-1] / 1000, "errors": failed,
            "requests": len(latencies), "mean_ms": statistics.mean(latencies) / 1000}
