/// The help texts, kept beside each other so they stay consistent.
enum Usage {
    static let main = """
        ratings: star ratings for items, with display and accessibility strings, over HTTP.

        Usage:
          ratings serve [--host H] [--port P] [--database PATH] [--default-max-rating N]
                        [--write-rate N] [--write-burst N]
          ratings migrate [--database PATH]
          ratings healthcheck [--url URL]
          ratings --help | ratings COMMAND --help

        Commands:
          serve        Apply pending migrations, then serve the HTTP API until SIGTERM or SIGINT.
          migrate      Apply pending migrations and exit.
          healthcheck  Exit 0 when GET /healthz answers 200 (for container health checks).
        """

    static let serve = """
        Usage: ratings serve [--host H] [--port P] [--database PATH] [--default-max-rating N]
                             [--write-rate N] [--write-burst N]

        Options (each overrides its environment variable):
          --host H                  Address to bind (RATINGS_HOST, default 127.0.0.1; 0.0.0.0 for all).
          --port P                  Port, 0 for an ephemeral one (RATINGS_PORT, default 8080).
          --database PATH           SQLite file, created if missing (RATINGS_DATABASE, default ratings.sqlite).
          --default-max-rating N    Scale of items without their own, 1 to 10 (RATINGS_DEFAULT_MAX_RATING, default 5).
          --write-rate N            Rating writes per second per rater, 0 for no limit (RATINGS_WRITE_RATE, default 5).
          --write-burst N           Writes a rater may make at once (RATINGS_WRITE_BURST, default 20).

        Bearer tokens (environment only): RATINGS_JWT_SECRET (HS256, at least 32 bytes) or
        RATINGS_JWT_PUBLIC_KEY_FILE (PEM; RSA for RS256, P-256 for ES256). With neither set, the
        service runs open and says so at start.

        Logs "listening on http://HOST:PORT" once listening; one access-log line per request on
        standard output. SIGTERM or SIGINT drains: in-flight requests are answered, then it exits 0.
        """

    static let migrate = """
        Usage: ratings migrate [--database PATH]

          --database PATH   SQLite file, created if missing (RATINGS_DATABASE, default ratings.sqlite).

        Applies the migrations built into this binary that the database lacks, each in its own
        transaction, and exits 0. Running it again changes nothing.
        """

    static let healthcheck = """
        Usage: ratings healthcheck [--url URL]

          --url URL   What to check (default http://127.0.0.1:$RATINGS_PORT/healthz, port 8080 when unset).

        Exits 0 when the URL answers 200, 1 otherwise.
        """
}
