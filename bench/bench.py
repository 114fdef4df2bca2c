#!/usr/bin/env python3
"""The ratings benchmark: the service loaded the way its users load it, beside nginx serving the
same bytes on the same machine, in one run.

Server pinned to one core, wrk (-t1) to the other; keep-alive; 64 connections unless a table
says otherwise. Every scenario runs --runs times (default 3) and the median is reported.
Prints a table and writes bench-results/bench-<time>.json. Run it with scripts/bench.sh.
"""
import argparse, json, os, re, shutil, signal, socket, sqlite3, statistics, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
SERVER_CPU, LOAD_CPU = "1", "0"


def log(message):
    print(message, file=sys.stderr, flush=True)


class Server:
    """`ratings serve` on a database file, pinned to SERVER_CPU, with its RSS sampled."""

    def __init__(self, binary, database, access_log):
        self.started = time.monotonic()
        # The access log goes straight to a file, as a log collector would take it; nothing of
        # the benchmark runs on the server's core.
        self.log_file = open(access_log, "w")
        self.process = subprocess.Popen(
            ["taskset", "-c", SERVER_CPU, binary, "serve", "--port", "0", "--database", database],
            stdout=self.log_file, stderr=subprocess.STDOUT)
        self.port = None
        deadline = time.monotonic() + 20
        while self.port is None and time.monotonic() < deadline:
            with open(access_log) as log:
                match = re.search(r"listening on http://[^ ]+:(\d+)", log.read())
            if match:
                self.port = int(match.group(1))
                self.ready_seconds = time.monotonic() - self.started
            else:
                time.sleep(0.001)
        if self.port is None:
            raise SystemExit("the server did not start")

    def rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=15)
        self.log_file.close()


class RSSSampler:
    """Samples a process's RSS every 100 ms while a load runs; keeps the peak."""

    def __init__(self, sample):
        self.sample, self.peak, self.values, self.running = sample, 0, [], True
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        while self.running:
            value = self.sample()
            self.values.append(value)
            self.peak = max(self.peak, value)
            time.sleep(0.1)

    def stop(self):
        self.running = False
        self.thread.join()
        return self.peak


def wrk(url, connections, seconds, script=None, run=0):
    command = ["taskset", "-c", LOAD_CPU, "wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency",
               "-s", os.path.join(BENCH, "wrk-report.lua")]
    if script:
        # wrk takes one script; concatenate the scenario with the shared report function.
        combined = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
        with open(os.path.join(BENCH, script)) as part, open(os.path.join(BENCH, "wrk-report.lua")) as report:
            combined.write(part.read() + "\n" + report.read())
        combined.close()
        command[-1] = combined.name
    output = subprocess.run(command + [url], capture_output=True, text=True, env={**os.environ, "BENCH_RUN": str(run)},
                            timeout=seconds + 60).stdout
    match = re.search(r"^RESULT (.*)$", output, re.M)
    if not match:
        raise SystemExit(f"wrk printed no result:\n{output}")
    return json.loads(match.group(1))


def measure(name, url, rss, connections=64, seconds=10, runs=3, script=None):
    results = []
    for run in range(runs):
        sampler = RSSSampler(rss) if rss else None
        # The run id becomes part of rater ids, so it keeps to identifier characters.
        result = wrk(url, connections, seconds, script, run=re.sub(r"[^A-Za-z0-9]", "", f"{name}{run}{time.time_ns()}"))
        result["rss_mib"] = round(sampler.stop() / 1024, 1) if sampler else None
        results.append(result)
        log(f"  {name} run {run + 1}: {result['rps']:.0f} req/s, p50 {result['p50_ms']:.2f} ms, "
            f"p99 {result['p99_ms']:.2f} ms, errors {result['errors']}, RSS {result['rss_mib']} MiB")
    median = {key: statistics.median(r[key] for r in results) for key in ("rps", "p50_ms", "p99_ms", "errors")}
    median["rss_mib"] = max((r["rss_mib"] or 0) for r in results) if rss else None
    median["runs"] = results
    return median


def seed(port, items=10_000):
    """One rating on each of `items` items (by distinct raters, so no write limit applies),
    pipelined over one connection; every answer must be 201."""
    sock = socket.create_connection(("127.0.0.1", port))
    body = b'{"stars":4}'
    batch = 500
    buffer = b""
    for start in range(0, items, batch):
        count = min(start + batch, items) - start
        sock.sendall(b"".join(
            b"PUT /v1/items/bench-%d/ratings/seed-%d HTTP/1.1\r\nHost: b\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (i, i, len(body), body) for i in range(start, start + count)))
        for _ in range(count):
            while b"\r\n\r\n" not in buffer:
                chunk = sock.recv(1 << 20)
                if not chunk:
                    raise SystemExit("the server closed the connection while seeding")
                buffer += chunk
            head, buffer = buffer.split(b"\r\n\r\n", 1)
            status = int(head.split(b" ", 2)[1])
            length = int(re.search(rb"content-length: (\d+)", head).group(1))
            while len(buffer) < length:
                buffer += sock.recv(1 << 20)
            buffer = buffer[length:]
            if status != 201:
                raise SystemExit(f"seeding got {status}")
    sock.close()


def build_large_database(binary, path, ratings=1_000_000, items=10_000):
    """A database holding `ratings` ratings over `items` items, aggregates consistent."""
    subprocess.run([binary, "migrate", "--database", path], check=True, capture_output=True)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    per_item = ratings // items
    db.executemany("INSERT INTO items (item_id, max_rating) VALUES (?, 5)", ((f"bench-{i}",) for i in range(items)))
    db.executemany("INSERT INTO ratings (item_id, rater_id, stars, updated_at_ms) VALUES (?, ?, ?, 0)",
                   ((f"bench-{i}", f"r{j}", j % 5 + 1) for i in range(items) for j in range(per_item)))
    columns = ", ".join(f"stars_{s} = (SELECT count(*) FROM ratings r WHERE r.item_id = items.item_id AND r.stars = {s})" for s in range(1, 6))
    db.execute(f"""UPDATE items SET rating_count = (SELECT count(*) FROM ratings r WHERE r.item_id = items.item_id),
                   rating_sum = (SELECT sum(stars) FROM ratings r WHERE r.item_id = items.item_id), {columns}""")
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def nginx_same_bytes(workdir, body):
    """nginx (1 worker, pinned like the server) serving `body` as a static JSON file."""
    root = os.path.join(workdir, "nginx")
    os.makedirs(os.path.join(root, "html", "v1", "items"), exist_ok=True)
    with open(os.path.join(root, "html", "v1", "items", "bench-37"), "wb") as f:
        f.write(body)
    port = free_port()
    config = os.path.join(root, "nginx.conf")
    with open(config, "w") as f:
        f.write(f"""
worker_processes 1;
worker_cpu_affinity {'01' if SERVER_CPU == '0' else '10'};
pid {root}/nginx.pid;
error_log {root}/error.log;
events {{ worker_connections 4096; }}
http {{
  access_log {root}/access.log;
  default_type application/json;
  keepalive_requests 1000000;
  server {{ listen 127.0.0.1:{port}; root {root}/html; etag on; }}
}}""")
    subprocess.run(["nginx", "-c", config, "-p", root], check=True)
    time.sleep(0.3)
    with open(os.path.join(root, "nginx.pid")) as f:
        master = int(f.read())
    workers = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout.split()
    worker = int(workers[0])

    def rss():
        total = 0
        for pid in (master, worker):
            with open(f"/proc/{pid}/status") as status:
                total += next(int(l.split()[1]) for l in status if l.startswith("VmRSS:"))
        return total
    return port, rss, lambda: subprocess.run(["nginx", "-c", config, "-p", root, "-s", "stop"], check=False)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/ratings"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--soak-seconds", type=int, default=300, help="mixed soak length; 0 skips it")
    parser.add_argument("--quick", action="store_true", help="scenarios only: no scaling, soak, or 1M database")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="ratings-bench-")
    os.chmod(work, 0o755)  # nginx workers run as www-data and must read the body file
    report = {"machine": {"cores": os.cpu_count(), "kernel": os.uname().release}, "settings": vars(args)}
    try:
        server = Server(args.binary, os.path.join(work, "db.sqlite"), os.path.join(work, "access.log"))
        base = f"http://127.0.0.1:{server.port}"
        log(f"seeding 10,000 items on {base}")
        seed(server.port)
        summary_bytes = subprocess.run(["curl", "-s", f"{base}/v1/items/bench-37"], capture_output=True).stdout
        report["summary_body_bytes"] = len(summary_bytes)

        scenarios = {}
        log("nginx serving the same bytes")
        nginx_port, nginx_rss, nginx_stop = nginx_same_bytes(work, summary_bytes)
        try:
            scenarios["nginx_same_bytes"] = measure("nginx", f"http://127.0.0.1:{nginx_port}/v1/items/bench-37", nginx_rss,
                                                    runs=args.runs, seconds=args.seconds)
        finally:
            nginx_stop()
        plan = [("get_summary", "/v1/items/bench-37", None), ("get_batch_20", "/v1/items", "get-batch.lua"),
                ("get_display", "/v1/display?value=3.3&max=5", None), ("put_rating", "/", "put-ratings.lua"),
                ("mixed_90_10", "/", "mixed.lua")]
        for name, path, script in plan:
            log(name)
            scenarios[name] = measure(name, base + path, server.rss_kib, runs=args.runs, seconds=args.seconds, script=script)
        report["scenarios"] = scenarios
        report["get_vs_nginx"] = round(scenarios["get_summary"]["rps"] / scenarios["nginx_same_bytes"]["rps"], 3)

        if not args.quick:
            log("1,000 idle keep-alive connections held open during GET and PUT load")
            idle = subprocess.Popen(["taskset", "-c", LOAD_CPU, sys.executable, os.path.join(BENCH, "idle-connections.py"),
                                     "127.0.0.1", str(server.port), "1000"], stdout=subprocess.PIPE, text=True)
            idle.stdout.readline()
            report["with_1000_idle"] = {
                "get_summary": measure("idle+get", base + "/v1/items/bench-37", server.rss_kib, runs=1, seconds=args.seconds),
                "put_rating": measure("idle+put", base + "/", server.rss_kib, runs=1, seconds=args.seconds, script="put-ratings.lua"),
            }
            idle.kill()

            log("scaling with connections")
            scaling = {}
            for connections in (1, 16, 64, 256, 1024):
                scaling[connections] = {
                    "get": measure(f"get c={connections}", base + "/v1/items/bench-37", None, connections, 5, 1),
                    "put": measure(f"put c={connections}", base + "/", None, connections, 5, 1, "put-ratings.lua"),
                }
            report["scaling"] = scaling

            if args.soak_seconds:
                log(f"mixed soak for {args.soak_seconds} s")
                sampler = RSSSampler(server.rss_kib)
                soak = wrk(base + "/", 64, args.soak_seconds, "mixed.lua", run="soak")
                sampler.stop()
                values = sampler.values
                first_minute = max(values[: max(1, len(values) // 5)])
                report["soak"] = {**soak, "rss_first_fifth_mib": round(first_minute / 1024, 1),
                                  "rss_end_mib": round(values[-1] / 1024, 1),
                                  "rss_peak_mib": round(max(values) / 1024, 1),
                                  "growth_pct": round(100 * (max(values[len(values) // 5:]) - first_minute) / first_minute, 1)}
        server.stop()

        if not args.quick:
            log("building a database with 1,000,000 ratings")
            large = os.path.join(work, "large.sqlite")
            build_large_database(args.binary, large)
            starts = []
            for _ in range(5):
                big = Server(args.binary, large, os.path.join(work, "large-access.log"))
                starts.append(big.ready_seconds * 1000)
                big.stop()
            report["start_to_listening_ms_1m_ratings"] = {"median": round(statistics.median(starts), 1), "runs": [round(s, 1) for s in starts]}
            small = os.path.join(work, "small.sqlite")
            build_large_database(args.binary, small, ratings=10_000)
            sizes = {}
            for label, path in (("10k_ratings", small), ("1m_ratings", large)):
                s = Server(args.binary, path, os.path.join(work, f"{label}.log"))
                sizes[label] = measure(f"get {label}", f"http://127.0.0.1:{s.port}/v1/items/bench-37", None, runs=args.runs, seconds=args.seconds)
                s.stop()
            report["get_by_data_size"] = sizes
    finally:
        shutil.rmtree(work, ignore_errors=True)

    os.makedirs(os.path.join(ROOT, "bench-results"), exist_ok=True)
    out = os.path.join(ROOT, "bench-results", time.strftime("bench-%Y%m%dT%H%M%S.json"))
    with open(out, "w") as f:
        json.dump(report, f, indent=2)
    print_table(report)
    print(f"\nwritten to {os.path.relpath(out, ROOT)}")


def print_table(report):
    print(f"\n{'scenario (64 connections)':<28}{'req/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}{'RSS MiB':>9}")
    for name, r in report["scenarios"].items():
        print(f"{name:<28}{r['rps']:>10.0f}{r['p50_ms']:>9.2f}{r['p99_ms']:>9.2f}{r['errors']:>8.0f}{(r['rss_mib'] or 0):>9.1f}")
    print(f"\nGET summary / nginx same bytes: {report['get_vs_nginx']:.2f}x")
    if "with_1000_idle" in report:
        for name, r in report["with_1000_idle"].items():
            print(f"{name} with 1,000 idle connections: {r['rps']:.0f} req/s, p99 {r['p99_ms']:.2f} ms, RSS {r['rss_mib']} MiB")
    if "scaling" in report:
        print(f"\n{'connections':<12}{'GET req/s':>11}{'GET p99':>9}{'PUT req/s':>11}{'PUT p99':>9}")
        for c, r in report["scaling"].items():
            print(f"{c:<12}{r['get']['rps']:>11.0f}{r['get']['p99_ms']:>9.2f}{r['put']['rps']:>11.0f}{r['put']['p99_ms']:>9.2f}")
    if "soak" in report:
        s = report["soak"]
        print(f"\nsoak: {s['rps']:.0f} req/s over {s['seconds']:.0f} s, RSS first fifth {s['rss_first_fifth_mib']} MiB, "
              f"peak {s['rss_peak_mib']} MiB, growth {s['growth_pct']}%")
    if "start_to_listening_ms_1m_ratings" in report:
        print(f"start to listening with 1,000,000 ratings: {report['start_to_listening_ms_1m_ratings']['median']} ms (median of 5)")
        for label, r in report["get_by_data_size"].items():
            print(f"GET summary with {label}: {r['rps']:.0f} req/s, p50 {r['p50_ms']:.3f} ms, p99 {r['p99_ms']:.3f} ms")


if __name__ == "__main__":
    main()
