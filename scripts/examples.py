#!/usr/bin/env python3
"""Every console example with output in README.md and docs/, produced by running it.

Each example sits in the Markdown between `<!-- example: NAME -->` and `<!-- /example -->`. This
script starts fresh servers (ephemeral ports, temporary SQLite files), runs each example's
commands in order, shows them as a reader would type them (port 8080) with their real output, and

    scripts/examples.py --write     puts the output into the pages
    scripts/examples.py --check     fails when a page differs from a fresh run in anything but
                                    timestamps, dates, request ids, durations and cursors (sealed
                                    with a random per-database secret)

--binary PATH picks the ratings binary (default .build/debug/ratings). ProgramTests runs --check.
"""
import argparse, difflib, json, os, re, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = ["README.md"] + sorted(os.path.join("docs", name) for name in os.listdir(os.path.join(ROOT, "docs")) if name.endswith(".md"))
SHOWN_PORT = 8080
JWT_SECRET = "an-example-secret-of-at-least-32-bytes"
# The webhooks page's endpoint secret and the port its receiver is shown on.
WEBHOOK_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
SHOWN_RECEIVER_PORT = 9090

# What may differ between two runs; everything else must match byte for byte.
VOLATILE = [
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"), "<time>"),
    (re.compile(r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT"), "<date>"),
    (re.compile(r"(?i)(x-request-id: )\S+"), r"\1<id>"),
    (re.compile(r"\bid=\S+"), "id=<id>"),
    (re.compile(r'"requestId":"[^"]*"'), '"requestId":"<id>"'),
    (re.compile(r"\b\d+us\b"), "<us>"),
    (re.compile(r'"durationMicros":\d+'), '"durationMicros":<us>'),
    (re.compile(r'"nextCursor":"[^"]*"'), '"nextCursor":"<cursor>"'),
    (re.compile(r"cursor=[A-Za-z0-9_%-]+"), "cursor=<cursor>"),
    (re.compile(r"msg_[A-Za-z0-9]{24}"), "msg_<id>"),
]


def normalized(text):
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    return text


class Server:
    """`ratings serve` on a fresh file and an ephemeral port, its output kept."""

    def __init__(self, binary, work, name, environment=None, separate_errors=False):
        """Standard error goes with standard output, or to a file of its own (`errors()`)."""
        self.log_path = os.path.join(work, f"{name}.log")
        self.log = open(self.log_path, "w")
        self.errors_path = os.path.join(work, f"{name}.err")
        self.errors_file = open(self.errors_path, "w") if separate_errors else None
        env = {**os.environ, **(environment or {})}
        self.process = subprocess.Popen([binary, "serve", "--port", "0", "--database", os.path.join(work, f"{name}.sqlite")],
                                        stdout=self.log, stderr=self.errors_file or subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 20
        while True:
            match = re.search(r"listening on http://[^ ]+:(\d+)", open(self.log_path).read())
            if match:
                self.port = int(match.group(1))
                break
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise SystemExit(f"the server did not start:\n{open(self.log_path).read()}")
            time.sleep(0.01)

    def output(self):
        return open(self.log_path).read()

    def errors(self):
        return open(self.errors_path).read()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stop()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=20)
        self.log.close()
        if self.errors_file:
            self.errors_file.close()


class Session:
    """Runs commands against one server and records them as a console transcript."""

    def __init__(self, server, environment=None, shown_ports=None):
        """`shown_ports` maps other real ports (a receiver's) to the ones a reader sees."""
        self.server, self.environment, self.lines = server, environment or {}, []
        self.shown_ports = {server.port: SHOWN_PORT, **(shown_ports or {})}

    def run(self, command, shown=None, record=True):
        real = command.replace(f"127.0.0.1:{SHOWN_PORT}", f"127.0.0.1:{self.server.port}")
        result = subprocess.run(["bash", "-c", real], capture_output=True, text=True, timeout=60,
                                env={**os.environ, **self.environment})
        output = (result.stdout + result.stderr).replace("\r\n", "\n")
        for port, shown_port in self.shown_ports.items():
            output = output.replace(str(port), str(shown_port))
        if record:
            self.lines.append(f"$ {shown or command}")
            if output:
                self.lines.append(output.rstrip("\n"))
        return output

    def text(self):
        return "\n".join(self.lines)


URL = f"http://127.0.0.1:{SHOWN_PORT}"


def put(item, rater, stars, extra=""):
    return f"curl -s{extra} -X PUT {URL}/v1/items/{item}/ratings/{rater} -H 'Content-Type: application/json' -d '{{\"stars\": {stars}}}'"


# The README tour's three first ratings of dinner-42, and dinner-42 as the tour leaves it.
TOUR_RATINGS = (("u-17", 4), ("u-18", 3), ("u-19", 5))
AFTER_TOUR = (("u-17", 4), ("u-19", 5))


def rate_dinner(session, ratings, shown_status=True):
    """Writes each (rater, stars) of dinner-42, showing each answer's status or nothing."""
    for rater, stars in ratings:
        session.run(put("dinner-42", rater, stars) + (" -o /dev/null -w '%{http_code}\\n'" if shown_status else " -o /dev/null"))


def generate(binary, work):
    """Every example, by name."""
    examples = {}

    def program(*arguments):
        result = subprocess.run([binary, *arguments], capture_output=True, text=True, timeout=30)
        return f"$ ratings {' '.join(arguments)}\n" + (result.stdout + result.stderr).rstrip("\n")

    examples["version"] = re.sub(r"\(commit [0-9a-f]+\)", "(commit <commit>)", program("--version"))
    examples["help"] = program("--help")
    examples["serve-help"] = program("serve", "--help")

    # Each page's examples run in order against a fresh server of their own, and every request
    # that changes what a later answer shows is on the page: a reader replays a page from an empty
    # database (`scripts/serve.sh` in a new folder) and gets what it shows.
    with Server(binary, work, "readme") as readme:
        tour = Session(readme)
        rate_dinner(tour, TOUR_RATINGS)
        tour.run(f"curl -s {URL}/v1/items/dinner-42")
        tour.run(f"curl -s -X DELETE {URL}/v1/items/dinner-42/ratings/u-18")
        tour.run(f"curl -s '{URL}/v1/display?value=3.3&max=5'")
        tour.run(put("dinner-42", "u-17", 4.5))
        tour.run(f"curl -s -X PUT {URL}/v1/items/dinner-42/reviews/u-19 -H 'Content-Type: application/json' "
                 "-d '{\"stars\": 5, \"title\": \"Worth the wait\", \"body\": \"The best risotto in town.\", \"language\": \"en\"}' "
                 "-o /dev/null -w '%{http_code}\\n'")
        tour.run(f"curl -s '{URL}/v1/items/dinner-42/reviews?sort=helpful&limit=1'")
        examples["readme-tour"] = tour.text()
        examples["readme-summary"] = ("json", readable(json.loads(tour.run(f"curl -s {URL}/v1/items/dinner-42", record=False))))

    with Server(binary, work, "api") as api:
        setup = Session(api)
        rate_dinner(setup, AFTER_TOUR)
        examples["api-setup"] = setup.text()

        ratings = Session(api)
        ratings.run(put("soup-7", "u-17", 4, " -i"))
        ratings.run(put("soup-7", "u-17", 5) + " -o /dev/null -w '%{http_code}\\n'")
        ratings.run(put("soup-7", "u-18", "4.0") + " -o /dev/null -w '%{http_code}\\n'")
        ratings.run(f"curl -s {URL}/v1/items/soup-7/ratings/u-17")
        ratings.run(f"curl -s -X DELETE {URL}/v1/items/soup-7/ratings/u-18")
        ratings.run(f"curl -s -X DELETE {URL}/v1/items/soup-7/ratings/u-18")
        ratings.run(f"curl -s {URL}/v1/items/soup-7/ratings/u-18")
        examples["api-ratings"] = ratings.text()

        summary = Session(api)
        summary.run(f"curl -s -i {URL}/v1/items/dinner-42")
        etag = re.search(r"(?im)^etag: (\S+)", summary.lines[-1]).group(1)
        summary.run(f"curl -s -i {URL}/v1/items/dinner-42 -H 'If-None-Match: {etag}'")
        summary.run(f"curl -s {URL}/v1/items/never-rated")
        examples["api-summary"] = summary.text()

        scale = Session(api)
        scale.run(f"curl -s -X PUT {URL}/v1/items/tapas -H 'Content-Type: application/json' -d '{{\"maxRating\": 3}}'")
        scale.run(put("tapas", "u-17", 3) + " -o /dev/null -w '%{http_code}\\n'")
        scale.run(f"curl -s -X PUT {URL}/v1/items/tapas -H 'Content-Type: application/json' -d '{{\"maxRating\": 10}}'")
        examples["api-scale"] = scale.text()

        batch = Session(api)
        batch.run(f"curl -s '{URL}/v1/items?ids=dinner-42,tapas'")
        batch.run(f"curl -s '{URL}/v1/items?ids=dinner-42&ids=tapas' -o /dev/null -w '%{{http_code}}\\n'")
        batch.run(f"curl -s '{URL}/v1/items?ids=dinner-42%2Ctapas' -o /dev/null -w '%{{http_code}}\\n'")
        batch.run(f"curl -s '{URL}/v1/items?ids=dinner-42,soup-7,never-rated&rater=u-17'")
        examples["api-batch"] = batch.text()

        reviews = Session(api)
        review = f"curl -s -X PUT {URL}/v1/items/soup-7/reviews/{{}} -H 'Content-Type: application/json' -d '{{}}'"
        reviews.run(review.format("u-17", '{"stars": 5, "title": "Best soup in town", "body": "The broth is deep and the noodles are fresh.", "language": "en"}')
                    + " -w '\\n%{http_code}\\n'")
        reviews.run(review.format("u-18", '{"stars": 4, "body": "Caldo muito bom.\\r\\nVoltarei.", "language": "pt-br"}')
                    + " -o /dev/null -w '%{http_code}\\n'")
        reviews.run(f"curl -s -X PUT {URL}/v1/items/soup-7/reviews/u-17/votes/u-18 -H 'Content-Type: application/json' -d '{{\"helpful\": true}}'"
                    + " -o /dev/null -w '%{http_code}\\n'")
        reviews.run(f"curl -s '{URL}/v1/items/soup-7/reviews?sort=helpful&limit=1'")
        page = json.loads(reviews.lines[-1])
        reviews.run(f"curl -s '{URL}/v1/items/soup-7/reviews?sort=helpful&limit=1&cursor={page['nextCursor']}'")
        reviews.run(f"curl -s '{URL}/v1/items/soup-7/reviews?sort=newest&limit=1&cursor={page['nextCursor']}'")
        reviews.run(f"curl -s '{URL}/v1/items/soup-7/reviews?stars=4,5&language=PT'")
        reviews.run(review.format("u-19", '{"stars": 3, "body": "Ring\\u0007ing"}'))
        reviews.run(f"curl -s -X PUT {URL}/v1/items/soup-7/reviews/u-17/votes/u-17 -H 'Content-Type: application/json' -d '{{\"helpful\": true}}'")
        examples["api-reviews"] = reviews.text()

        replies = Session(api)
        replies.run(f"curl -s -X PUT {URL}/v1/items/soup-7/reviews/u-18/reply -H 'Content-Type: application/json' -d '{{\"body\": \"Obrigado! Come back for the pho.\"}}'")
        replies.run(f"curl -s -X DELETE {URL}/v1/items/soup-7/reviews/u-18/reply -o /dev/null -w '%{{http_code}}\\n'")
        examples["api-replies"] = replies.text()

        moderation = Session(api)
        flag = f"curl -s -X PUT {URL}/v1/items/soup-7/reviews/u-18/flags/{{}} -H 'Content-Type: application/json' -d '{{}}'"
        moderation.run(flag.format("u-19", '{"reason": "spam", "note": "The same text is on every soup."}'))
        moderation.run(flag.format("u-20", '{"reason": "fake"}') + " -o /dev/null -w '%{http_code}\\n'")
        moderation.run(flag.format("u-21", '{"reason": "spam"}') + " -o /dev/null -w '%{http_code}\\n'")
        moderation.run(f"curl -s '{URL}/v1/items/soup-7/reviews' | grep -o '\"raterId\":\"[^\"]*\"'")
        moderation.run(f"curl -s '{URL}/v1/moderation/queue' | grep -o '\"flags\":{{[^}}]*}}'")
        moderation.run(f"curl -s -X PUT {URL}/v1/items/soup-7/reviews/u-18/moderation -H 'Content-Type: application/json' "
                       "-d '{\"status\": \"published\", \"reason\": \"A real customer; the wording is theirs.\"}'")
        moderation.run(f"curl -s -X PUT {URL}/v1/items/soup-7/reviews/u-18/moderation -H 'Content-Type: application/json' "
                       "-d '{\"status\": \"pending\"}'")
        examples["api-moderation"] = moderation.text()

        raters = Session(api)
        raters.run(f"curl -s '{URL}/v1/raters/u-17/ratings?limit=2'")
        first = json.loads(raters.lines[-1])
        raters.run(f"curl -s '{URL}/v1/raters/u-17/ratings?limit=2&cursor={first['nextCursor']}'")
        raters.run(f"curl -s -X DELETE {URL}/v1/raters/u-17")
        raters.run(f"curl -s -X DELETE {URL}/v1/raters/u-17")
        examples["api-raters"] = raters.text()

        ranking = Session(api)
        ranking.run(put("ramen", "r-1", 5) + " -o /dev/null")
        for item, stars in (("pho", "5 5 4 5 4 5 5 4"), ("curry", "4 4 3 4")):
            ranking.run(f"n=0; for s in {stars}; do n=$((n + 1)); curl -s -X PUT {URL}/v1/items/{item}/ratings/r-$n "
                        f"-H 'Content-Type: application/json' -d \"{{\\\"stars\\\": $s}}\" -o /dev/null; done")
        ranking.run(f"curl -s '{URL}/v1/rankings/top?limit=2'")
        examples["api-ranking"] = ranking.text()

        display = Session(api)
        for query in ("value=3.3&max=5", "value=2.74", "value=-1", "value=7&max=3", "value=3.5&max=5&lang=ar-SA"):
            display.run(f"curl -s '{URL}/v1/display?{query}'")
        examples["api-display"] = display.text()

        errors = Session(api)
        errors.run(put("dinner-42", "u-20", 9))
        errors.run(f"curl -s -X PUT {URL}/v1/items/dinner-42/ratings/u-20 -H 'Content-Type: application/json' -d '{{\"stars\": 4'")
        errors.run(f"curl -s {URL}/v1/items/.. --path-as-is")
        errors.run(f"curl -s -i -X POST {URL}/v1/items/dinner-42")
        errors.run(f"curl -s '{URL}/v1/display?value=3,5'")
        examples["api-errors"] = errors.text()

    with Server(binary, work, "languages") as languages_server:
        languages = Session(languages_server)
        rate_dinner(languages, AFTER_TOUR)
        languages.run(f"curl -s -i -H 'Accept-Language: es-MX, en;q=0.5' {URL}/v1/items/dinner-42")
        languages.run(f"curl -s '{URL}/v1/display?value=3.5&max=5&lang=ar'")
        languages.run(f"curl -s -i '{URL}/v1/display?value=3.5&max=5&lang=ar-SA' | grep -e '^content-language' -e accessibilityValue")
        languages.run(f"curl -s '{URL}/v1/display?value=1&max=1&lang=ja'")
        languages.run(f"curl -s '{URL}/v1/display?value=2&max=2&lang=he'")
        examples["languages"] = languages.text()
        examples["languages-table"] = ("markdown", language_table(Session(languages_server)))

    with Server(binary, work, "logged") as logged:
        writes = Session(logged)
        rate_dinner(writes, TOUR_RATINGS, shown_status=False)
    log_lines = [line for line in logged.output().splitlines() if line.startswith("20")]
    examples["access-log-text"] = writes.text() + "\n# the server's standard output:\n" + "\n".join(log_lines)

    with Server(binary, work, "operations") as operations_server:
        operations = Session(operations_server)
        operations.run(put("dinner-42", "u-17", 4) + " -o /dev/null -w '%{http_code}\\n'")
        operations.run(f"curl -s {URL}/v1/items/dinner-42 -o /dev/null -w '%{{http_code}}\\n'")
        operations.run(f"curl -s -X DELETE {URL}/v1/items/dinner-42/ratings/u-17 -o /dev/null -w '%{{http_code}}\\n'")
        operations.run(f"curl -s {URL}/healthz")
        operations.run(f"curl -s {URL}/readyz")
        operations.run(f"curl -s {URL}/metrics | grep -e '^ratings_ratings' -e '^ratings_open' -e 'route=\"/v1/items/{{itemId}}\",method=\"GET\"'")
        examples["operations-probes"] = operations.text()

    with Server(binary, work, "json", {"RATINGS_LOG_FORMAT": "json"}, separate_errors=True) as json_server:
        json_write = Session(json_server)
        json_write.run(put("dinner-42", "u-17", 4) + " -o /dev/null")
    examples["access-log-json"] = (json_write.text() + "\n# the server's standard output (ratings serve --log-format json):\n"
                                   + "\n".join(line for line in json_server.output().splitlines() if '"peer"' in line))
    examples["error-log-json"] = json_server.errors().strip()

    with Server(binary, work, "tokens", {"RATINGS_JWT_SECRET": JWT_SECRET}) as secured:
        tokens = token_session(secured, binary, "the server's secret",
                               (("TOKEN", "--subject u-17"), ("ADMIN", "--subject ops --scope ratings:admin")))
        tokens.run(put("dinner-42", "u-17", 4) + " -o /dev/null -w '%{http_code}\\n'")
        tokens.run(put("dinner-42", "u-17", 4) + " -H \"Authorization: Bearer $TOKEN\" -o /dev/null -w '%{http_code}\\n'")
        tokens.run(put("dinner-42", "me", 5) + " -H \"Authorization: Bearer $TOKEN\" -o /dev/null -w '%{http_code}\\n'")
        tokens.run(put("dinner-42", "u-18", 4) + " -H \"Authorization: Bearer $TOKEN\"")
        tokens.run(f"curl -s -X DELETE {URL}/v1/raters/u-17 -H \"Authorization: Bearer $ADMIN\"")
        examples["api-tokens"] = tokens.text()

    # The webhooks page: the receiver of docs/webhook-receiver.py on a free port, a server whose
    # webhooks file points at it, and writes one at a time (each waited for, unshown, so the
    # receiver's lines come in the order the writes were made).
    receiver_port = free_port()
    hooks_file = os.path.join(work, "hooks.json")
    hooks = {"endpoints": [{"id": "crm", "url": f"http://127.0.0.1:{receiver_port}/hooks/ratings", "secret": WEBHOOK_SECRET,
                            "events": ["rating.*", "review.*"]}]}
    with open(hooks_file, "w") as file:
        json.dump(hooks, file, indent=2)
    receiver_log = os.path.join(work, "receiver.log")
    receiver = subprocess.Popen([sys.executable, os.path.join(ROOT, "docs", "webhook-receiver.py"), str(receiver_port)],
                                stdout=open(receiver_log, "w"), stderr=subprocess.STDOUT, env={**os.environ, "WEBHOOK_SECRET": WEBHOOK_SECRET})
    try:
        with Server(binary, work, "webhooks", {"RATINGS_WEBHOOKS_FILE": hooks_file}) as hooked:
            events = Session(hooked, shown_ports={receiver_port: SHOWN_RECEIVER_PORT})
            events.lines.append("$ cat hooks.json")
            events.lines.append(json.dumps(hooks, indent=2).replace(str(receiver_port), str(SHOWN_RECEIVER_PORT)))
            events.lines.append(f"$ WEBHOOK_SECRET={WEBHOOK_SECRET} python3 docs/webhook-receiver.py {SHOWN_RECEIVER_PORT} > receiver.log &")
            events.lines.append("$ ratings serve --webhooks hooks.json &")
            for index, command in enumerate([put("soup-7", "u-17", 4), put("soup-7", "u-17", 5), put("soup-7", "u-18", 2),
                                             f"curl -s -X DELETE {URL}/v1/items/soup-7/ratings/u-18"]):
                events.run(command + " -o /dev/null -w '%{http_code}\\n'")
                wait_for_lines(receiver_log, index + 1)
            events.run(f"curl -s {URL}/v1/admin/webhooks")
            forged = (f"curl -s -X POST http://127.0.0.1:{receiver_port}/hooks/ratings -H 'webhook-id: msg_forged' "
                      f"-H \"webhook-timestamp: $(date +%s)\" -H 'webhook-signature: v1,AAAA' -d '{{}}' -w '%{{http_code}}\\n'")
            events.run(forged, shown=forged.replace(str(receiver_port), str(SHOWN_RECEIVER_PORT)))
            events.lines.append("$ cat receiver.log")
            events.lines.append(open(receiver_log).read().rstrip("\n"))
            examples["operations-webhooks"] = events.text()
    finally:
        # SIGKILL: a test runner's blocked SIGTERM is inherited, and this receiver keeps no state.
        receiver.kill()
        receiver.wait(timeout=10)
    examples["operations-webhook-receiver"] = ("python", open(os.path.join(ROOT, "docs", "webhook-receiver.py")).read().rstrip("\n"))

    moderated_environment = {"RATINGS_JWT_SECRET": JWT_SECRET, "RATINGS_REVIEW_MODERATION": "pre"}
    with Server(binary, work, "moderated", moderated_environment) as moderated:
        staff = token_session(moderated, binary, "the server's secret; it runs with RATINGS_REVIEW_MODERATION=pre",
                              (("TOKEN", "--subject u-17"), ("MODERATOR", "--subject mod-1 --scope ratings:moderate")))
        review = (f"curl -s -X PUT {URL}/v1/items/soup-7/reviews/u-17 -H 'Content-Type: application/json' "
                  "-d '{\"stars\": 5, \"body\": \"Best soup in town.\"}' -H \"Authorization: Bearer $TOKEN\"")
        staff.run(review + " | grep -o '\"status\":\"[a-z]*\"'")
        staff.run(f"curl -s {URL}/v1/moderation/queue -H \"Authorization: Bearer $TOKEN\"")
        staff.run(f"curl -s {URL}/v1/moderation/queue -H \"Authorization: Bearer $MODERATOR\" | grep -o '\"raterId\":\"[^\"]*\"'")
        staff.run(f"curl -s -X PUT {URL}/v1/items/soup-7/reviews/u-17/moderation -H 'Content-Type: application/json' "
                  "-d '{\"status\": \"published\"}' -H \"Authorization: Bearer $MODERATOR\"")
        staff.run(f"curl -s {URL}/metrics | grep -e '^ratings_moderation' -e '^ratings_review_flags'")
        examples["operations-moderation"] = staff.text()

    # The copy: a database a server wrote and then stopped, copied to a new file and then refused
    # as a destination; times and rates vary from run to run, so they are shown as placeholders.
    with Server(binary, work, "ratings") as source:
        writes = Session(source)
        for rater, stars in (("u-17", 4), ("u-18", 3), ("u-19", 5)):
            writes.run(put("soup-7", rater, stars), record=False)
        writes.run(f"curl -s -X PUT {URL}/v1/items/soup-7/reviews/u-17 -H 'Content-Type: application/json' "
                   "-d '{\"stars\": 4, \"body\": \"Deep broth.\"}'", record=False)
    moving = Session(source, {"PATH": os.path.dirname(binary) + os.pathsep + os.environ["PATH"]})
    for command in ("ratings copy --from ratings.sqlite --to moved.sqlite", "ratings copy --from ratings.sqlite --to moved.sqlite; echo \"exit $?\""):
        # One stream, so the progress lines come before the summary, as on a terminal.
        output = moving.run(f"cd {work} && {{ {command}; }} 2>&1", shown=command)
        moving.lines[-1] = re.sub(r"in \d+\.\d s", "in <time>", re.sub(r"[\d,]+ rows/s", "<rate> rows/s", output.rstrip("\n")))
    examples["operations-copy"] = moving.text()
    return examples


def token_session(server, binary, note, tokens):
    """A session whose shell variables hold tokens made as a reader makes them: `ratings token` on
    the PATH, with the server's secret in the environment; each (NAME, arguments) is shown."""
    session = Session(server, {"RATINGS_JWT_SECRET": JWT_SECRET, "PATH": os.path.dirname(binary) + os.pathsep + os.environ["PATH"]})
    session.lines.append(f"$ export RATINGS_JWT_SECRET={JWT_SECRET}   # {note}")
    for name, arguments in tokens:
        command = f"ratings token {arguments}"
        session.environment[name] = session.run(command, record=False).strip()
        session.lines.append(f"$ {name}=$({command})")
    return session


def free_port():
    """A loopback port nothing listens on now."""
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_lines(path, count, timeout=20):
    """Waits until the file at `path` holds `count` lines."""
    deadline = time.monotonic() + timeout
    while open(path).read().count("\n") < count:
        if time.monotonic() > deadline:
            raise SystemExit(f"{path} did not reach {count} lines:\n{open(path).read()}")
        time.sleep(0.02)


def language_table(session):
    """What every language file says for 3.5 of 5, 1 of 1 and not rated, English first."""
    tags = sorted((name[:-5] for name in os.listdir(os.path.join(ROOT, "locales")) if name.endswith(".json")), key=str.lower)
    regional = ["ar-SA", "de-CH", "en-ZA", "es-MX", "ur-IN"]  # a few of the regions with numbers of their own
    rows = ["| tag | `accessibilityLabel` | `accessibilityValue` | 1 of 1 | not rated |", "|---|---|---|---|---|"]
    for tag in ["en"] + [tag for tag in tags if tag != "en"] + regional:
        def display(query):
            return json.loads(session.run(f"curl -s '{URL}/v1/display?{query}&lang={tag}'", record=False))
        half, one, none = display("value=3.5&max=5"), display("value=1&max=1"), display("value=0&max=5")
        rows.append(f"| {tag} | {half['accessibilityLabel']} | {half['accessibilityValue']} | {one['accessibilityValue']} | {none['accessibilityValue']} |")
    return "\n".join(rows)


def readable(summary):
    """A summary as the README shows it: one line per member, the display's members too."""
    def line(value):
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    top = [f"{line(key)}: {line(value)}" for key, value in summary.items() if key != "display"]
    display = [f"    {line(key)}: {line(value)}" for key, value in summary["display"].items()]
    return "{\n  " + ", ".join(top) + ',\n  "display": {\n' + ",\n".join(display) + "\n  }\n}"


def measured_later(commit, than):
    """Whether `commit` descends from `than` in this repository's history."""
    return subprocess.run(["git", "-C", ROOT, "merge-base", "--is-ancestor", than, commit]).returncode == 0


def benchmark_tables():
    """The newest full benchmark result and the newest attacks, webhooks, copy, languages and PostgreSQL results, rendered by bench/report.py."""
    results = os.path.join(ROOT, "bench", "results")
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import report
    from benchlib import newest_result
    newest = newest_result(results)
    with open(os.path.join(results, newest)) as f:
        result = json.load(f)
    with open(os.path.join(results, newest_result(results, "attacks"))) as f:
        attacks = json.load(f)
    with open(os.path.join(results, newest_result(results, "webhooks"))) as f:
        webhooks = json.load(f)
    with open(os.path.join(results, newest_result(results, "copy"))) as f:
        copies = json.load(f)
    with open(os.path.join(results, newest_result(results, "languages"))) as f:
        languages = json.load(f)
    # PostgreSQL's rows from the newer of the newest full run and the newest --postgresql run:
    # the one that measured the later commit (the full run when both measured one commit).
    postgresql = result
    if any(name.endswith("-postgresql.json") for name in os.listdir(results)):
        with open(os.path.join(results, newest_result(results, "postgresql"))) as f:
            alone = json.load(f)
        if alone["commit"] != result["commit"] and measured_later(alone["commit"], than=result["commit"]):
            postgresql = alone
    return {"bench-summary": ("markdown", report.render_summary(result)),
            "bench-report": ("markdown", report.render(result)),
            "bench-postgresql": ("markdown", report.render_postgresql(postgresql)),
            "bench-postgresql-summary": ("markdown", report.render_postgresql_summary(postgresql)),
            "bench-attacks": ("markdown", report.render_attacks(attacks)),
            "bench-webhooks": ("markdown", report.render_webhooks(webhooks)),
            "bench-copy": ("markdown", report.render_copies(copies)),
            "bench-languages": ("markdown", report.render_languages(languages))}


BLOCK = re.compile(r"(<!-- example: ([a-z0-9-]+) -->\n)(.*?)(<!-- /example -->)", re.S)


def fenced(example):
    kind, text = example if isinstance(example, tuple) else ("console", example)
    if kind == "markdown":
        return text if text.endswith("\n") else text + "\n"
    return f"```{kind}\n{text}\n```\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/debug/ratings"))
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="ratings-examples-")
    try:
        examples = {**generate(os.path.abspath(args.binary), work), **benchmark_tables()}
    finally:
        shutil.rmtree(work, ignore_errors=True)

    used, problems = set(), []
    for page in PAGES:
        path = os.path.join(ROOT, page)
        text = open(path).read()

        def replace(match):
            name = match.group(2)
            used.add(name)
            if name not in examples:
                problems.append(f"{page}: no example is named {name}")
                return match.group(0)
            expected = fenced(examples[name])
            if args.check and normalized(match.group(3)) != normalized(expected):
                diff = difflib.unified_diff(normalized(match.group(3)).splitlines(), normalized(expected).splitlines(),
                                            f"{page} ({name})", "a fresh run", lineterm="")
                problems.append("\n".join(diff))
            return match.group(1) + expected + match.group(4)
        updated = BLOCK.sub(replace, text)
        if args.write and updated != text:
            open(path, "w").write(updated)
    problems += [f"the example {name} appears on no page" for name in sorted(set(examples) - used)]
    if problems:
        print("\n\n".join(problems), file=sys.stderr)
        print("\nexamples: the pages differ from a fresh run; scripts/examples.py --write refreshes them", file=sys.stderr)
        sys.exit(1)
    print(f"examples: {'written' if args.write else 'every example matches a fresh run'}")


if __name__ == "__main__":
    main()
