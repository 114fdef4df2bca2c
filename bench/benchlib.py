"""The parts the benchmark is built from: the server under test, the load generator, the two
references (nginx answering from memory, SQLite called straight from C), a private PostgreSQL
cluster, and the ways data is put in place. bench.py decides what to measure with them."""
import atexit, itertools, json, math, os, re, shutil, signal, socket, sqlite3, statistics, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
# The server and every reference run on core 1, the load generator on core 0.
SERVER_CPU, LOAD_CPU = "1", "0"
# The hot summary every read row asks for: one of the 10,000 seeded items.
HOT = "/v1/items/bench-37"
PG_BIN = "/usr/lib/postgresql/15/bin"


def log(message):
    print(message, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(*pids):
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/status") as status:
            total += next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return total


class Server:
    """`ratings serve` on a database (file or URI), pinned to SERVER_CPU; the access log goes to a
    file, as a log collector would take it."""

    def __init__(self, binary, database, log_path, extra=(), cpu=SERVER_CPU):
        self.log_path = log_path
        self.log_file = open(log_path, "w")
        started = time.monotonic()
        self.process = subprocess.Popen(
            # Every client of the benchmark has the address 127.0.0.1, as behind a proxy.
            ["taskset", "-c", cpu, binary, "serve", "--port", "0", "--database", database,
             "--max-connections-per-address", "0", *extra],
            stdout=self.log_file, stderr=subprocess.STDOUT)
        self.port = None
        deadline = started + 600
        while self.port is None:
            with open(log_path) as f:
                match = re.search(r"listening on http://[^ ]+:(\d+)", f.read())
            if match:
                self.port = int(match.group(1))
                self.ready_ms = (time.monotonic() - started) * 1000
            elif self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start:\n{open(log_path).read()}")
            else:
                time.sleep(0.0005)
        self.base = f"http://127.0.0.1:{self.port}"

    def rss_kib(self):
        return rss_kib(self.process.pid)

    @property
    def pids(self):
        return (self.process.pid,)

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)
        self.log_file.close()


class RSSSampler:
    """Samples RSS every 100 ms while a load runs; keeps every value."""

    def __init__(self, sample):
        self.sample, self.values, self.running = sample, [], True
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        while self.running:
            self.values.append(self.sample())
            time.sleep(0.1)

    def stop(self):
        self.running = False
        self.thread.join()
        return max(self.values, default=0)


_SCRIPTS = []


def _scripts_folder():
    """One folder for this run's combined wrk scripts, removed when the run ends."""
    if not _SCRIPTS:
        _SCRIPTS.append(tempfile.mkdtemp(prefix="ratings-bench-scripts-"))
        atexit.register(shutil.rmtree, _SCRIPTS[0], True)
    return _SCRIPTS[0]


_RUN_NUMBERS = itertools.count()


def wrk_command(url, connections, seconds, script, run, env_extra=None):
    report = os.path.join(BENCH, "wrk-report.lua")
    path = report
    if script:
        # wrk takes one script: the scenario between the shared choice of items and the shared
        # report function.
        combined = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False, dir=_scripts_folder())
        with open(os.path.join(BENCH, "items.lua")) as items, open(os.path.join(BENCH, script)) as part, open(report) as shared:
            combined.write(items.read() + "\n" + part.read() + "\n" + shared.read())
        combined.close()
        path = combined.name
    # The run id becomes part of rater ids (bench/put-ratings.lua): identifier characters, unique
    # within this process (whose servers it outlives), and short like the ids the C reference writes.
    env = {**os.environ, **(env_extra or {}), "BENCH_RUN": re.sub(r"[^A-Za-z0-9]", "", f"{run}{next(_RUN_NUMBERS)}")}
    return ["taskset", "-c", LOAD_CPU, "wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", path, url], env


def wrk_result(output):
    match = re.search(r"^RESULT (.*)$", output, re.M)
    if not match:
        raise SystemExit(f"wrk printed no result:\n{output}")
    return json.loads(match.group(1))


def wrk(url, connections=64, seconds=10, script=None, run="r", env_extra=None):
    """One wrk run's figures, with the run id its raters were named after (`bench_run`)."""
    command, env = wrk_command(url, connections, seconds, script, run, env_extra)
    result = wrk_result(subprocess.run(command, capture_output=True, text=True, env=env, timeout=seconds + 60).stdout)
    result["bench_run"] = env["BENCH_RUN"]
    return result


def wrk_together(urls, connections, seconds, script=None, run="r", env_extra=None):
    """One wrk per URL at once (connections split between them); request rates add up, the
    latency percentiles are the worst of them."""
    started = []
    for index, url in enumerate(urls):
        command, env = wrk_command(url, connections // len(urls), seconds, script, f"{run}{index}", env_extra)
        started.append(subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env))
    results = [wrk_result(p.communicate(timeout=seconds + 60)[0]) for p in started]
    combined = {key: max(r[key] for r in results) for key in ("p50_ms", "p99_ms", "max_ms", "seconds")}
    for key in ("requests", "rps", "errors", "status_errors"):
        combined[key] = sum(r[key] for r in results)
    return combined


def summarize(name, results):
    """The median of each figure over runs, with every run kept."""
    for result in results:
        log(f"  {name}: {result['rps']:.0f} req/s, p50 {result['p50_ms']:.2f} ms, p99 {result['p99_ms']:.2f} ms, "
            f"errors {result['errors']}" + (f", RSS {result['rss_mib']} MiB" if result.get("rss_mib") else "")
            + (f", steal {result['steal_pct']} %" if "steal_pct" in result else ""))
    median = {key: statistics.median(r[key] for r in results) for key in ("rps", "p50_ms", "p99_ms", "max_ms")}
    # A count stays a count: over an even number of runs, the lower of the middle two.
    median["errors"] = statistics.median_low(r["errors"] for r in results)
    if all("written_bytes" in r for r in results):
        median["written_bytes"] = statistics.median(r["written_bytes"] for r in results)
    if "user_us" in results[0]:
        median.update(median_cpu_run(results))
    if any(r.get("rss_mib") for r in results):
        median["rss_mib"] = max(r.get("rss_mib") or 0 for r in results)
    median["runs"] = results
    return median


def ratios_by_round(runs, references, key="rps"):
    """Each round's own ratio of `key`: the two figures of a round were taken a minute apart."""
    return [run[key] / reference[key] for run, reference in zip(runs, references)]


def median_ratio(runs, references, key="rps"):
    """The median of the rounds' own ratios, where a ratio of two medians can pair runs from
    different minutes of a shared machine."""
    return statistics.median(ratios_by_round(runs, references, key))


def read_ratios(reads):
    """The read targets' ratios, each the median of its rounds' ratios."""
    nginx, single = reads["nginx"]["runs"], reads["get_summary"]["runs"]
    return {
        "get_summary_vs_nginx": round(median_ratio(single, nginx), 3),
        "get_summary_p99_vs_nginx": round(median_ratio(single, nginx, "p99_ms"), 2),
        "get_display_vs_nginx": round(median_ratio(reads["get_display"]["runs"], nginx), 3),
        "batch_20_vs_get_summary": round(median_ratio(reads["get_batch_20"]["runs"], single), 3),
    }


def ceiling_runs(writes):
    """The C reference's runs in the shape of the server's (it records only a rate per run)."""
    return [{"rps": value} for value in writes["sqlite_ceiling_rps"]["runs"]]


# The C floors bench.writes measures in each round, by their names in the results.
FLOORS = ("put_floor", "put_floor_handover")


def write_ratios(writes):
    """The durable write's ratio to the C reference run in the same round, median of the rounds."""
    ratios = {"put_vs_sqlite_ceiling": round(median_ratio(writes["put_rating"]["runs"], ceiling_runs(writes)), 3)}
    if "put_rating_zipf" in writes:
        ratios["put_zipf_vs_sqlite_ceiling_zipf"] = round(median_ratio(writes["put_rating_zipf"]["runs"],
                                                                       [{"rps": value} for value in writes["sqlite_ceiling_zipf_rps"]["runs"]]), 3)
    for floor in FLOORS: # the C floors, and the server against them, in the same rounds
        if floor in writes:
            ratios[f"{floor}_vs_sqlite_ceiling"] = round(median_ratio(writes[floor]["runs"], ceiling_runs(writes)), 3)
            ratios[f"put_vs_{floor}"] = round(median_ratio(writes["put_rating"]["runs"], writes[floor]["runs"]), 3)
    return ratios


def cpu_seconds(*pids):
    """The user and the kernel CPU time the processes have used so far, in seconds."""
    user = system = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            thread_user, thread_system = stat_times(stat.read())
        user, system = user + thread_user, system + thread_system
    ticks = os.sysconf("SC_CLK_TCK")
    return user / ticks, system / ticks


def written_bytes(pid):
    """The bytes the process has caused to be written to storage so far (`/proc/PID/io`)."""
    with open(f"/proc/{pid}/io") as io:
        return int(next(line for line in io if line.startswith("write_bytes:")).split()[1])


def named_cpu_seconds(patterns, *pids):
    """The CPU time, as (user, kernel) seconds, that the processes' threads whose name matches
    each of `patterns` (field: regular expression) have used so far, by field; None for a pattern
    no thread matches (nginx). One walk of the threads serves every pattern. The server's loops
    (`loop-N`), its SQLite writer (`sqlite-writer`) and WAL syncer (`sqlite-sync`) live as long as the server, so none of
    their time leaves with an ended thread; the C floor's hand-over names its two threads so too."""
    totals = dict.fromkeys(patterns)
    for pid in pids:
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{task}/stat") as stat:
                    text = stat.read()
            except FileNotFoundError: # a thread that ended meanwhile
                continue
            name = text.split("(", 1)[1].rsplit(")", 1)[0]
            for field, pattern in patterns.items():
                if re.fullmatch(pattern, name):
                    user, system = totals[field] or (0, 0)
                    thread_user, thread_system = stat_times(text)
                    totals[field] = (user + thread_user, system + thread_system)
    ticks = os.sysconf("SC_CLK_TCK")
    return {field: None if total is None else (total[0] / ticks, total[1] / ticks) for field, total in totals.items()}


# The threads measure_once times on their own, by the field each goes into (user and kernel
# together); the user-space part goes into the field's user_field.
NAMED_THREADS = {"loops_us": r"loop-\d+", "writer_us": "sqlite-writer", "syncer_us": "sqlite-sync"}


def user_field(field):
    """Where the user-space part of a NAMED_THREADS field goes: loops_us -> loops_user_us."""
    return field.removesuffix("_us") + "_user_us"


# Every CPU figure of a run, per request: the process's user and kernel time, and each named thread's.
CPU_FIGURES = ("user_us", "system_us") + tuple(key for field in NAMED_THREADS for key in (field, user_field(field)))


def median_cpu_run(runs):
    """The CPU figures of the run whose CPU time per request (user and kernel) is the median.
    They come from one run, so user and kernel time add up to its total and its threads to their
    part of it; each figure's own median can come from another run, giving a total no run had and
    a remainder for the other threads below zero."""
    ordered = sorted(runs, key=lambda run: run["user_us"] + run["system_us"])
    middle = ordered[(len(ordered) - 1) // 2]
    return {key: middle[key] for key in CPU_FIGURES if key in middle}


def stat_times(text):
    """utime and stime, in clock ticks, from a `/proc/.../stat` line (man 5 proc)."""
    fields = text.rsplit(")", 1)[1].split()
    return int(fields[11]), int(fields[12])


def machine_ticks():
    """The machine's CPU time so far as (stolen, all) clock ticks, from /proc/stat's `cpu` line:
    stolen is what the hypervisor gave to other guests while this one wanted to run."""
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal guest guest_nice (man 5 proc); guest time
    # is already counted in user and nice.
    return fields[7], sum(fields[:8])


class StealMeter:
    """The share of the machine's CPU time stolen by the hypervisor between start and `percent`:
    on a shared host it swings from nothing to a third within minutes, and every run's speed
    with it, so each run reports it beside its figures."""

    def __init__(self):
        self.start = machine_ticks()

    def percent(self):
        stolen, total = machine_ticks()
        return round(100 * (stolen - self.start[0]) / max(1, total - self.start[1]), 1)


def measure_once(url, rss=None, connections=64, seconds=10, script=None, run="r", cpu_pids=(), env_extra=None):
    """One wrk run; with `rss`, the peak RSS during it; with `cpu_pids`, the CPU time those
    processes spent per completed request, in user space and in the kernel (µs), and that of
    their NAMED_THREADS, in all and in user space. Always the hypervisor's steal over the run
    (`steal_pct`), and with `cpu_pids` the bytes the first of them wrote to storage per completed
    request (`written_bytes`, the kernel's `write_bytes`: the WAL and database pages a durable
    write costs)."""
    sampler = RSSSampler(rss) if rss else None
    before = cpu_seconds(*cpu_pids) if cpu_pids else None
    written_before = written_bytes(cpu_pids[0]) if cpu_pids else None
    named_before = named_cpu_seconds(NAMED_THREADS, *cpu_pids) if cpu_pids else {}
    steal = StealMeter()
    result = wrk(url, connections, seconds, script, run, env_extra)
    result["steal_pct"] = steal.percent()
    if before:
        after = cpu_seconds(*cpu_pids)
        requests = max(1, result["requests"])
        result["user_us"] = round((after[0] - before[0]) * 1e6 / requests, 2)
        result["system_us"] = round((after[1] - before[1]) * 1e6 / requests, 2)
        if written_before is not None:
            result["written_bytes"] = round((written_bytes(cpu_pids[0]) - written_before) / requests)
        named_after = named_cpu_seconds(NAMED_THREADS, *cpu_pids)
        for field, seconds_before in named_before.items():
            if seconds_before is not None:
                (user_after, system_after), (user_before, system_before) = named_after[field], seconds_before
                result[field] = round((user_after + system_after - user_before - system_before) * 1e6 / requests, 2)
                result[user_field(field)] = round((user_after - user_before) * 1e6 / requests, 2)
    if sampler:
        result["rss_mib"] = round(sampler.stop() / 1024, 1)
    return result


def pipelined(port, requests, expect):
    """Sends raw HTTP/1.1 requests over one connection, 500 at a time, and checks every status."""
    sock = socket.create_connection(("127.0.0.1", port))
    buffer = b""
    for start in range(0, len(requests), 500):
        window = requests[start:start + 500]
        sock.sendall(b"".join(window))
        for _ in window:
            while b"\r\n\r\n" not in buffer:
                chunk = sock.recv(1 << 20)
                if not chunk:
                    raise SystemExit("the server closed the connection while seeding")
                buffer += chunk
            head, buffer = buffer.split(b"\r\n\r\n", 1)
            status = int(head.split(b" ", 2)[1])
            length = int(re.search(rb"(?i)content-length: (\d+)", head).group(1))
            while len(buffer) < length:
                buffer += sock.recv(1 << 20)
            buffer = buffer[length:]
            if status not in expect:
                raise SystemExit(f"seeding got {status}")
    sock.close()


def json_put(path, body):
    """A raw HTTP/1.1 PUT of the JSON `body` (bytes) to `path`."""
    return (b"PUT %s HTTP/1.1\r\nHost: b\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (path.encode(), len(body), body))


def put_request(item, rater, stars):
    return json_put(f"/v1/items/{item}/ratings/{rater}", b'{"stars":%d}' % stars)


def seed(port, items=10_000):
    """One 4-star rating on each of `items` items bench-0..., each by a distinct rater."""
    pipelined(port, [put_request(f"bench-{i}", f"seed-{i}", 4) for i in range(items)], {201})


def seed_reviews(port, items=10_000):
    """A review on each of `items` items bench-0..., item bench-N's by author-N, for
    bench/put-votes.lua to vote on."""
    pipelined(port, [review_request(f"bench-{i}", f"author-{i}") for i in range(items)], {201})


def review_request(item, rater):
    return json_put(f"/v1/items/{item}/reviews/{rater}", b'{"stars":4,"body":"The broth was deep and the noodles fresh."}')


def seed_rater(port, rater, items=10_000):
    """`items` ratings by one rater (the server must run with --write-rate 0)."""
    pipelined(port, [put_request(f"bench-{i}", rater, i % 5 + 1) for i in range(items)], {200, 201})


def request(base, method, path):
    """One request; returns (status, seconds, body)."""
    started = time.monotonic()
    result = subprocess.run(["curl", "-s", "-X", method, "-o", "-", "-w", "\n%{http_code}", base + path],
                            capture_output=True, text=True, timeout=120)
    body, _, status = result.stdout.rpartition("\n")
    return int(status), time.monotonic() - started, body


def migrated_for_loading(binary, path):
    """A connection to a database the binary has migrated, set for bulk loading (no syncs)."""
    subprocess.run([binary, "migrate", "--database", path], check=True, capture_output=True)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    return db


def build_rated_items(binary, path, items=1_000_000, reviewed=False):
    """A SQLite database of `items` items with one rating each (stars spread 1 to 5 by a hash, so
    the ranking has ties and distinct scores), aggregates consistent, and no ranking settings
    recorded: the first `serve` computes every score, as after a change of prior or weight. With
    `reviewed`, every rating has a review of about 400 characters (`insert_reviews`)."""
    db = migrated_for_loading(binary, path)

    def stars(i):
        return (i * 2654435761 >> 7) % 5 + 1
    columns = ", ".join(f"stars_{s}" for s in range(1, 6))
    db.executemany(f"INSERT INTO items (item_id, max_rating, rating_count, rating_sum, {columns}) VALUES (?, 5, 1, ?, ?, ?, ?, ?, ?)",
                   ((f"item-{i:07d}", stars(i), *(int(stars(i) == s) for s in range(1, 6))) for i in range(items)))
    db.executemany("INSERT INTO ratings (item_id, rater_id, stars, updated_at_ms) VALUES (?, ?, ?, ?)",
                   ((f"item-{i:07d}", f"rater-{i % 50_000}", stars(i), 1_700_000_000_000 + i) for i in range(items)))
    if reviewed:
        insert_reviews(db, ((f"item-{i:07d}", f"rater-{i % 50_000}", stars(i), i) for i in range(items)))
        db.execute("UPDATE items SET review_count = 1")
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


REVIEW_LANGUAGES = ["en", "en-GB", "de", "fr", "es", "pt-BR", "ja"]
REVIEW_WORDS = {
    "en": "the broth was deep and noodles fresh service quick but room loud would come back again for soup".split(),
    "de": "die Brühe war kräftig und Nudeln frisch Bedienung schnell aber laut gerne wieder zur Suppe".split(),
    "fr": "le bouillon était riche et les nouilles fraîches service rapide mais salle bruyante je reviendrai".split(),
    "es": "el caldo era intenso y los fideos frescos servicio rápido pero ruidoso volveré por la sopa".split(),
    "pt": "o caldo estava intenso e o macarrão fresco serviço rápido mas barulhento voltarei pela sopa".split(),
    "ja": "スープは 濃厚で 麺も 新鮮 でした 店員さんは 早い けれど 少し うるさい また 来ます".split(),
}


def review_text(i):
    """Review `i`'s language and a body of about 400 characters in it."""
    language = REVIEW_LANGUAGES[i % len(REVIEW_LANGUAGES)]
    words, out, length, j = REVIEW_WORDS[language.split("-")[0]], [], 0, i
    while length < 400:
        word = words[(j * 7919) % len(words)]
        out.append(word)
        length += len(word) + 1
        j += 1
    return language, " ".join(out)[:400]


def helpful_key(up, down):
    """The store's "most helpful" key, as RatingsCore's HelpfulScore computes it."""
    if up <= 0:
        return 0
    total, z = float(up + down), 1.96
    share, z2 = up / total, z * z
    bound = (share + z2 / (2 * total) - z * math.sqrt(share * (1 - share) / total + z2 / (4 * total * total))) / (1 + z2 / total)
    return int(math.floor(max(0.0, min(1.0, bound)) * 1e15))


def insert_reviews(db, rows):
    """Reviews of existing ratings: rows of (item, rater, stars, index); each gets review_text(index),
    a title, a creation time from its index and some helpful votes (counts and key only)."""
    def review(item, rater, stars, i):
        language, body = review_text(i)
        up, down = (i * 2654435761 >> 9) % 20, (i * 40503 >> 5) % 7
        created = 1_700_000_000_000 + i * 1000
        return (item, rater, stars, f"Review {i}", body, language, created, created, up, down, helpful_key(up, down))
    db.executemany("INSERT INTO reviews (item_id, rater_id, stars, title, body, language, created_at_ms, updated_at_ms, "
                   "helpful_up, helpful_down, helpful_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (review(*row) for row in rows))


def build_reviewed_item(binary, path, item="reviewed", reviews=100_000):
    """A SQLite database where one item has `reviews` ratings, each with a review of about 400
    characters in one of several languages, aggregates and review count consistent."""
    db = migrated_for_loading(binary, path)

    def stars(i):
        return (i * 2654435761 >> 7) % 5 + 1
    counts = [sum(1 for i in range(reviews) if stars(i) == s) for s in range(1, 6)]
    columns = ", ".join(f"stars_{s}" for s in range(1, 6))
    db.execute(f"INSERT INTO items (item_id, max_rating, rating_count, rating_sum, review_count, {columns}) VALUES (?, 5, ?, ?, ?, ?, ?, ?, ?, ?)",
               (item, reviews, sum(stars(i) for i in range(reviews)), reviews, *counts))
    db.executemany("INSERT INTO ratings (item_id, rater_id, stars, updated_at_ms) VALUES (?, ?, ?, ?)",
                   ((item, f"rev-{i:06d}", stars(i), 1_700_000_000_000 + i * 1000) for i in range(reviews)))
    insert_reviews(db, ((item, f"rev-{i:06d}", stars(i), i) for i in range(reviews)))
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


class Nginx:
    """The read reference: nginx at its fastest, one worker pinned like the server, `return 200`
    of the given bytes from memory, no access log."""

    def __init__(self, workdir, body, other_cpu=False, status=200):
        """`other_cpu` pins it beside the load generator instead of where the server runs (as a
        webhook endpoint the server delivers to)."""
        if any(c in body for c in b"'$\\"):
            raise SystemExit("the body cannot be written into an nginx string as is")
        self.root = os.path.join(workdir, "nginx")
        os.makedirs(self.root, exist_ok=True)
        self.port = free_port()
        self.config = os.path.join(self.root, "nginx.conf")
        with open(self.config, "w") as f:
            f.write(f"""
worker_processes 1;
worker_cpu_affinity {'01' if (SERVER_CPU == '0') != other_cpu else '10'};
pid {self.root}/nginx.pid;
error_log {self.root}/error.log;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  keepalive_requests 100000000;
  default_type application/json;
  server {{ listen 127.0.0.1:{self.port}; location / {{ return {status} '{body.decode()}'; }} }}
}}""")
        subprocess.run(["nginx", "-c", self.config, "-p", self.root], check=True)
        deadline = time.monotonic() + 10
        while not os.path.exists(os.path.join(self.root, "nginx.pid")) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)
        with open(os.path.join(self.root, "nginx.pid")) as f:
            self.master = int(f.read())
        self.worker = int(subprocess.run(["pgrep", "-P", str(self.master)], capture_output=True, text=True).stdout.split()[0])
        self.url = f"http://127.0.0.1:{self.port}/v1/items/bench-37"

    def rss_kib(self):
        return rss_kib(self.master, self.worker)

    @property
    def pids(self):
        """The worker, which answers every request (the master only waits)."""
        return (self.worker,)

    def stop(self):
        subprocess.run(["nginx", "-c", self.config, "-p", self.root, "-s", "stop"], check=False)


def remove_database(path):
    """Deletes an SQLite database file with its WAL and shared-memory files, where they exist."""
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


class SQLiteCeiling:
    """The write reference: bench/sqlite-ceiling.c, the store's own statements for a new rating
    straight on SQLite (WAL, synchronous=FULL, 64 ratings per commit), pinned like the server."""

    def __init__(self, workdir):
        self.workdir = workdir
        self.binary = os.path.join(workdir, "sqlite-ceiling")
        subprocess.run(["gcc", "-O2", "-o", self.binary, os.path.join(BENCH, "sqlite-ceiling.c"), "-lsqlite3", "-lm"], check=True)
        self.migrations = self.migration_files()
        self.cpu_us = [] # per run: CPU time per rating written, user and kernel
        self.steal_pct = [] # per run: the hypervisor's steal meanwhile
        self.commit_ms = [] # per run: the slowest 1 % of commits and the slowest, in ms

    @staticmethod
    def migration_files():
        """The SQLite migrations, in order."""
        folder = os.path.join(ROOT, "migrations", "sqlite")
        return [os.path.join(folder, name) for name in sorted(os.listdir(folder)) if name.endswith(".sql")]

    def run(self, seconds, ratings=0, run="", items="random"):
        """Ratings per second over `seconds`, or until `ratings` are written when not 0; the raters
        are named as bench/put-ratings.lua names them in the wrk run `run` (its BENCH_RUN), so the
        reference writes rows of the same size as the server just did."""
        database = os.path.join(self.workdir, "ceiling.sqlite")
        remove_database(database)
        steal = StealMeter()
        output = subprocess.run(["taskset", "-c", SERVER_CPU, self.binary, database, str(seconds), str(ratings), *self.migrations],
                                capture_output=True, text=True, check=True,
                                env={**os.environ, "RATER_PREFIX": f"r{run}-", "BENCH_ITEMS": items}).stdout
        self.steal_pct.append(steal.percent())
        # Per rating written, measured by the program around its writing loop alone.
        self.cpu_us.append({key: float(re.search(key + r"=([0-9.]+)", output).group(1)) for key in ("user_us", "system_us")})
        self.commit_ms.append({key: float(re.search(f"commit_{key}" + r"=([0-9.]+)", output).group(1)) for key in ("p99_ms", "max_ms")})
        return float(re.search(r"ratings_per_second=(\d+)", output).group(1))


def wal_frames(strace_output):
    """(frames, commits) written to a WAL file, read from `strace -y -xx -e trace=pwrite64` output:
    each frame begins with a 24-byte header written by a pwrite of its own, and a frame whose header
    carries the database's size in pages (its second 4-byte field) ends a commit
    (sqlite.org/fileformat2.html#walformat). Paths and buffers come hex-escaped under -xx."""
    wal = "".join(f"\\x{byte:02x}" for byte in b"-wal") + ">"
    frames = commits = 0
    for line in strace_output.splitlines():
        header = re.search(r'pwrite64\(\d+<[^>]*>, "((?:\\x[0-9a-f]{2}){8,})"(?:\.\.\.)?, 24, ', line)
        if not header or (wal not in line and "-wal>" not in line):
            continue
        fields = bytes.fromhex(header.group(1).replace("\\x", ""))
        frames += 1
        commits += int.from_bytes(fields[4:8], "big") != 0
    return frames, commits


def put_answer_bytes(base):
    """The length, head and body, of the service's answer to a new rating with ids as long as
    bench/put-ratings.lua's (it writes that one rating)."""
    sizes = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{size_header} %{size_download}", "-X", "PUT",
                            "-H", "content-type: application/json", "-d", '{"stars":3}',
                            base + "/v1/items/bench-5000/ratings/rp0-50000"],
                           capture_output=True, text=True, check=True).stdout.split()
    return sum(int(size) for size in sizes)


class PutFloor:
    """The C floor, bench/put-floor-server.c, on a fresh database, pinned like the server: about the
    least a server can do to answer bench/put-ratings.lua's PUTs durably (one thread, the
    reference's statements, one transaction per turn of its loop), beside the service's `PUT`;
    with `handover`, the same built as the service must be (a loop thread serving the sockets, a
    writer thread doing the SQL and nothing else, taking every write waiting whenever it is free).
    `answer_bytes` is the length of each answer: the service's own (put_answer_bytes), so the
    loopback TCP work matches."""

    def __init__(self, workdir, answer_bytes):
        self.workdir, self.answer_bytes = workdir, answer_bytes
        self.binary = os.path.join(workdir, "put-floor-server")
        subprocess.run(["gcc", "-O2", "-o", self.binary, os.path.join(BENCH, "put-floor-server.c"), "-lsqlite3"], check=True)
        self.migrations = SQLiteCeiling.migration_files()

    def start(self, handover=False):
        """Starts a fresh one; returns its process and base URL."""
        database = os.path.join(self.workdir, "floor.sqlite")
        remove_database(database)
        environment = {**os.environ, "ANSWER_BYTES": str(self.answer_bytes), "HANDOVER": "1" if handover else "0"}
        process = subprocess.Popen(["taskset", "-c", SERVER_CPU, self.binary, database, *self.migrations],
                                   stdout=subprocess.PIPE, text=True, env=environment)
        match = re.search(r"listening on (http://\S+)", process.stdout.readline())
        if not match:
            process.kill()
            raise SystemExit("the floor server did not start")
        return process, match.group(1)

    def measure(self, seconds, run, handover=False, items="random"):
        """One run of the `PUT` load, on `items` (bench/items.lua's BENCH_ITEMS), on a fresh one
        (measure_once's figures, CPU per request included), after a sync, as the service's runs
        start."""
        process, base = self.start(handover)
        try:
            os.sync()
            result = measure_once(base + "/", seconds=seconds, script="put-ratings.lua", run=run, cpu_pids=(process.pid,),
                                  env_extra={"BENCH_ITEMS": items})
        finally:
            process.send_signal(signal.SIGTERM)
            output = process.communicate(timeout=30)[0]
        count = re.search(r"requests=(\d+)", output)
        if not count:
            raise SystemExit(f"the floor server stopped without its count (exit {process.returncode})")
        answered = int(count.group(1))
        if answered < result["requests"]:
            raise SystemExit(f"the floor server answered {answered} requests, wrk counted {result['requests']}")
        return result


class PostgresCluster:
    """A private PostgreSQL 15 cluster (initdb in a temporary folder as the postgres user, a free
    loopback port, fsync on: the durable default), stopped by stop()."""

    def __init__(self, workdir):
        if not os.path.exists(f"{PG_BIN}/initdb"):
            raise SystemExit("PostgreSQL 15 is not installed; scripts/bench.sh installs it")
        self.directory = os.path.join(workdir, "postgres")
        os.makedirs(self.directory)
        as_postgres = ["/sbin/runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if as_postgres:
            subprocess.run(["chown", "postgres", self.directory], check=True)
        self.as_postgres = as_postgres
        self.port = free_port()
        data = os.path.join(self.directory, "data")
        self.run("initdb", "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync")
        settings = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c max_connections=200"
        self.run("pg_ctl", "-D", data, "-l", os.path.join(self.directory, "server.log"), "-o", settings, "-w", "start")
        self.count = 0

    def run(self, tool, *arguments):
        # Output to a file: a started server would hold a pipe open.
        with open(os.path.join(self.directory, "tools.log"), "a") as out:
            subprocess.run([*self.as_postgres, f"{PG_BIN}/{tool}", *arguments], stdout=out, stderr=out, check=True)

    def new_database(self):
        self.count += 1
        name = f"ratings{self.count}"
        subprocess.run([f"{PG_BIN}/psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-qc",
                        f"CREATE DATABASE {name}"], check=True, capture_output=True)
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self):
        self.run("pg_ctl", "-D", os.path.join(self.directory, "data"), "-m", "fast", "-w", "stop")


def result_order(name):
    """Sort key of a result file's name: its date, then its number that day. DATE-KIND.json is a
    day's first run, DATE-N-KIND.json its Nth, so a second run never overwrites the first."""
    date, rest = name[:10], name[11:]
    number = rest.split("-", 1)[0]
    return (date, int(number) if number.isdigit() else 1)


def newest_result(folder, kind="full"):
    """The name of the newest result of `kind` in `folder`."""
    return max((name for name in os.listdir(folder) if name.endswith(f"-{kind}.json")), key=result_order)


def new_result_path(folder, date, kind):
    """Where a new result of `kind` taken on `date` goes: the day's first free name."""
    path, number = os.path.join(folder, f"{date}-{kind}.json"), 1
    while os.path.exists(path):
        number += 1
        path = os.path.join(folder, f"{date}-{number}-{kind}.json")
    return path


def erasure_stall(binary, database, work, label, seconds=12):
    """10,000 ratings of one rater erased while other raters write: how long the erasure takes
    and the slowest of the other writes meanwhile."""
    server = Server(binary, database, os.path.join(work, f"erase-{label}.log"), extra=["--write-rate", "0"])
    try:
        seed(server.port)
        seed_rater(server.port, "eraser")
        command, env = wrk_command(server.base + "/", 64, seconds, "put-ratings.lua", "erase")
        load = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
        time.sleep(seconds / 3)
        status, took, body = request(server.base, "DELETE", "/v1/raters/eraser")
        during = wrk_result(load.communicate(timeout=seconds + 60)[0])
    finally:
        server.stop()
    if status != 200 or json.loads(body).get("cleared") != 10_000:
        raise SystemExit(f"erasure answered {status}: {body}")
    log(f"  erasure on {label}: {took * 1000:.0f} ms; other writes meanwhile p99 {during['p99_ms']:.1f} ms, "
        f"max {during['max_ms']:.1f} ms, errors {during['errors']}")
    return {"erase_ms": round(took * 1000, 1), "cleared": 10_000, "put_during": during}
