#!/usr/bin/env bash
# Proves the container recipe with a real engine, on a machine that reaches no image registry:
#   1. static checks: hadolint on the Dockerfile, the real Compose binary validates compose.yaml;
#   2. a private dockerd (own socket, data and exec folders), stand-in base images under the
#      exact names the Dockerfile uses (built from Debian packages and the local Swift toolchain),
#      the unchanged Dockerfile built, every shared library the image's binary needs found in the
#      runtime base image, and a compose round trip: non-root user, healthy, a rating
#      stored and read in Arabic and Spanish, kept across restart, `docker stop` under 3 s with exit 0, `down -v`;
#   3. compose.postgres.yaml for real: PostgreSQL (a stand-in for postgres:15-bookworm built from
#      Debian's postgresql-15 with an entrypoint that honours the official image's POSTGRES_*
#      variables), three replicas and the HAProxy load balancer built from docker/loadbalancer; a
#      rating written through the balancer is read back on every replica; one replica cut off from
#      the database is out of rotation within 5 s (every request still answered 2xx) and back once
#      the database is reachable; one replica is killed and the balancer keeps answering; then
#      everything is removed and the daemon stopped.
# Prints the image size and how long it took. Needs root (dockerd, mmdebstrap).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
started=$(date +%s)
# Each line says how far into the check it is, so a slow run shows which step took the time.
say() { printf 'container: [%3d s] %s\n' $(($(date +%s) - started)) "$*"; }
fail() { say "FAILED: $*" >&2; exit 1; }

scripts/setup.sh --container

lab=$(mktemp -d /var/tmp/ratings-lab.XXXXXX)
export DOCKER_HOST="unix://$lab/docker.sock"
export DOCKER_CONFIG="$lab/docker-config"
export DOCKER_BUILDKIT=0 COMPOSE_BAKE=false
mkdir -p "$DOCKER_CONFIG/cli-plugins"
ln -s "$root/.venv-tools/bin/docker-compose-real" "$DOCKER_CONFIG/cli-plugins/docker-compose"
compose=(docker compose -p ratings-ci -f docker/compose.yaml)

cleanup() {
    set +e
    if [ -S "$lab/docker.sock" ]; then
        "${compose[@]}" down -v --remove-orphans >/dev/null 2>&1
        RATINGS_DB_PASSWORD=x "${compose_pg[@]}" down -v --remove-orphans >/dev/null 2>&1
    fi
    if [ -f "$lab/dockerd.pid" ]; then
        kill "$(cat "$lab/dockerd.pid")" 2>/dev/null
        for _ in $(seq 100); do [ -f "$lab/dockerd.pid" ] && kill -0 "$(cat "$lab/dockerd.pid")" 2>/dev/null || break; sleep 0.1; done
    fi
    umount "$lab/exec/netns/default" 2>/dev/null
    for mount in $(awk -v lab="$lab" '$2 ~ "^"lab {print $2}' /proc/mounts | sort -r); do umount -l "$mount" 2>/dev/null; done
    rm -rf "$lab"
}
trap cleanup EXIT

# 1. Static checks.
.venv-tools/bin/hadolint docker/Dockerfile
say "hadolint passed (ignored rules and reasons: .hadolint.yaml)"
RATINGS_PUBLISHED_PORT=8080 "${compose[@]}" config -q
say "compose.yaml is valid for Docker Compose $(docker compose version --short)"
compose_pg=(docker compose -p ratings-pg-ci -f docker/compose.postgres.yaml)
RATINGS_DB_PASSWORD=check RATINGS_PUBLISHED_PORT=8080 "${compose_pg[@]}" config -q
say "compose.postgres.yaml is valid"
.venv-tools/bin/hadolint docker/loadbalancer/Dockerfile
say "hadolint passed on docker/loadbalancer/Dockerfile"

# 2. Stand-in base images and a private engine.
say "building stand-in base images"
# The two roots download at once: each mostly waits on the mirror.
mmdebstrap --quiet --variant=minbase bookworm "$lab/slim.tar" /etc/apt/sources.list.d/debian.sources </dev/null &
slim_root=$!
swift_packages=binutils,libicu-dev,libcurl4-openssl-dev,libedit-dev,libsqlite3-dev,libncurses-dev,libxml2-dev,pkg-config,uuid-dev,tzdata,git,gcc,libstdc++-12-dev,ca-certificates
mmdebstrap --quiet --variant=minbase --include="$swift_packages" bookworm "$lab/swift-root" /etc/apt/sources.list.d/debian.sources </dev/null
wait "$slim_root" || fail "mmdebstrap could not make the slim root"
swift_usr=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
cp -al --no-clobber "$swift_usr/." "$lab/swift-root/usr/"
# Without the debugger, the editor services, the documentation compiler and the embedded-Swift
# libraries (about half the toolchain's 3.3 GB), none of which `swift build` uses: every byte left
# is written again by docker import. The links go; the host's toolchain keeps its files.
(cd "$lab/swift-root/usr" && rm -rf bin/sourcekit-lsp bin/lldb* bin/clangd bin/docc bin/swift-format bin/wasmkit bin/repl_swift \
    lib/liblldb.so* lib/libsourcekitdInProc.so lib/libSwiftSourceKit*Plugin.so lib/swift/embedded share/docc)

mkdir -p "$lab/slim-root"
tar -C "$lab/slim-root" -xf "$lab/slim.tar"

mkdir -p "$lab/docker" "$lab/exec"
dockerd --data-root "$lab/docker" --exec-root "$lab/exec" --pidfile "$lab/dockerd.pid" \
    -H "$DOCKER_HOST" >"$lab/dockerd.log" 2>&1 &
for _ in $(seq 100); do docker info >/dev/null 2>&1 && break; sleep 0.2; done
docker info >/dev/null 2>&1 || { cat "$lab/dockerd.log" >&2; fail "dockerd did not start"; }
docker import - debian:bookworm-slim <"$lab/slim.tar" >/dev/null
tar -C "$lab/swift-root" -c . | docker import - swift:6.3-bookworm >/dev/null
rm -rf "$lab/swift-root" "$lab/slim.tar"
say "engine ready; stand-ins imported as debian:bookworm-slim and swift:6.3-bookworm"

# The PostgreSQL stand-in (for step 5): what the official postgres:15-bookworm offers the compose
# file, built from Debian's postgresql-15.
mkdir -p "$lab/postgres-image"
cat >"$lab/postgres-image/Dockerfile" <<'DOCKERFILE'
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-15 && rm -rf /var/lib/apt/lists/* \
 && install -d -o postgres -g postgres -m 0700 /var/lib/postgresql/data
COPY entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
USER postgres
VOLUME ["/var/lib/postgresql/data"]
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
DOCKERFILE
cat >"$lab/postgres-image/entrypoint.sh" <<'ENTRYPOINT'
#!/bin/sh
# The part of the official postgres image's entrypoint the compose file relies on: a first start
# initialises the cluster with POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB and listens on
# every address with password authentication.
set -e
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    printf '%s\n' "$POSTGRES_PASSWORD" >/tmp/pwfile
    initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile=/tmp/pwfile --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm -f /tmp/pwfile
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    psql -U "$POSTGRES_USER" -d postgres -c "CREATE DATABASE \"$POSTGRES_DB\"" >/dev/null
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec "$@" -c listen_addresses='*'
ENTRYPOINT
chmod +x "$lab/postgres-image/entrypoint.sh"
# Built while the ratings image compiles: these two mostly wait on the mirror and dpkg.
(docker build --network host -q -t postgres:15-bookworm "$lab/postgres-image" >/dev/null \
    && docker build --network host -q -t ratings-loadbalancer:latest docker/loadbalancer >/dev/null) >"$lab/side-images.log" 2>&1 &
side_images=$!

# 3. The unchanged Dockerfile.
docker build --network host -q --build-arg RATINGS_BUILD_COMMIT="$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
    -f docker/Dockerfile -t ratings:latest . >/dev/null
size=$(docker image inspect --format '{{.Size}}' ratings:latest)
base_size=$(docker image inspect --format '{{.Size}}' debian:bookworm-slim)
say "image ratings:latest built: $((size / 1024 / 1024)) MiB, of which $(((size - base_size) / 1024 / 1024)) MiB on top of the stand-in debian:bookworm-slim ($((base_size / 1024 / 1024)) MiB; the official slim image is smaller)"

# Shared libraries: what the image's binary needs must all exist in the runtime base. Read from
# the image itself, the binary that ships, rather than from a second release build here.
shipped=$(docker create ratings:latest)
docker cp -q "$shipped:/usr/local/bin/ratings" "$lab/ratings"
docker rm -v "$shipped" >/dev/null # -v: the image declares a volume, which create made
needed=$(readelf -d "$lab/ratings" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
missing=""
for library in $needed; do
    # Installed by the Dockerfile's runtime stage: libsqlite3-0, libssl3, libpq5 and libcurl4.
    case "$library" in libsqlite3.so.0|libcrypto.so.3|libpq.so.5|libcurl.so.4) continue ;; esac
    find "$lab/slim-root/lib" "$lab/slim-root/usr/lib" -name "$library" | grep -q . || missing="$missing $library"
done
[ -z "$missing" ] || fail "the runtime image lacks:$missing"
say "the image's binary needs only: $(echo $needed) (all in debian:bookworm-slim, plus libsqlite3-0, libssl3, libpq5 and libcurl4)"
rm -rf "$lab/slim-root" "$lab/ratings"

# 4. Compose round trip on a free port.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export RATINGS_PUBLISHED_PORT=$port
"${compose[@]}" up -d --no-build
container=$("${compose[@]}" ps -q ratings)
base="http://127.0.0.1:$port"
for _ in $(seq 100); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
[ "$(curl -fs "$base/healthz")" = '{"status":"ok"}' ] || fail "/healthz does not answer"
uid=$(docker exec "$container" sh -c 'awk "/^Uid:/ {print \$2}" /proc/$(pgrep -x ratings || echo 1)/status' 2>/dev/null || true)
[ -n "$uid" ] || uid=$(docker top "$container" -o uid,comm | awk '$2 == "ratings" {print $1}')
[ "$uid" = "10001" ] || fail "the server runs as uid '$uid', not 10001"
say "the server runs as uid 10001"
for _ in $(seq 60); do
    [ "$(docker inspect --format '{{.State.Health.Status}}' "$container")" = healthy ] && break
    sleep 1
done
[ "$(docker inspect --format '{{.State.Health.Status}}' "$container")" = healthy ] || fail "the container never became healthy"
say "health state: healthy"
created=$(curl -fs -o /dev/null -w '%{http_code}' -X PUT "$base/v1/items/dinner-42/ratings/u-17" -H 'Content-Type: application/json' -d '{"stars": 4}')
[ "$created" = 201 ] || fail "PUT answered $created"
curl -fs "$base/v1/items/dinner-42" | grep -q '"count":1' || fail "the summary does not count the rating"
say "rating round trip: PUT 201, summary counts it"
curl -fs -i -H 'Accept-Language: ar' "$base/v1/items/dinner-42" | tr -d '\r' | grep -qi '^content-language: ar$' \
    || fail "the image does not answer in Arabic: are the language files embedded?"
curl -fs "$base/v1/items/dinner-42?lang=es" | grep -q '"accessibilityValue":"4 de 5 estrellas"' \
    || fail "the image does not answer in Spanish"
say "languages: Accept-Language ar and ?lang=es answered in their languages"

"${compose[@]}" restart >/dev/null
for _ in $(seq 100); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
curl -fs "$base/v1/items/dinner-42/ratings/u-17" | grep -q '"stars":4' || fail "the rating did not survive a restart"
say "the rating survived compose restart (named volume)"

stop_started=$(date +%s.%N)
docker stop "$container" >/dev/null
stop_seconds=$(echo "$(date +%s.%N) - $stop_started" | bc)
exit_code=$(docker inspect --format '{{.State.ExitCode}}' "$container")
[ "$exit_code" = 0 ] || fail "the server exited $exit_code on docker stop"
awk -v s="$stop_seconds" 'BEGIN { exit !(s < 3) }' || fail "docker stop took ${stop_seconds}s"
say "docker stop took ${stop_seconds}s; exit code 0"

"${compose[@]}" down -v >/dev/null 2>&1
[ -z "$(docker ps -aq)" ] || fail "containers left after down -v"
[ -z "$(docker volume ls -q)" ] || fail "volumes left after down -v"
say "down -v removed the container and the volume"
version=$(docker run --rm ratings:latest --version)
[ "$version" = "ratings $(sed -n 's/.*static let version = "\(.*\)"/\1/p' Sources/ratings/BuildInfo.swift) (commit $(git rev-parse HEAD 2>/dev/null || echo unknown))" ] \
    || fail "the image says '$version'"
say "the image names its build: $version"

# 5. PostgreSQL: three replicas behind the load balancer, for real.
wait "$side_images" || { cat "$lab/side-images.log" >&2; fail "the stand-in postgres or the load balancer image did not build"; }
say "stand-in postgres:15-bookworm and the load balancer image built"
export RATINGS_DB_PASSWORD=check-$RANDOM RATINGS_PUBLISHED_PORT=$port
"${compose_pg[@]}" up -d --no-build >/dev/null 2>&1 || { "${compose_pg[@]}" logs >&2; fail "compose.postgres.yaml did not come up"; }
for _ in $(seq 150); do [ "$(curl -fs -o /dev/null -w '%{http_code}' "$base/readyz")" = 200 ] && break; sleep 0.2; done
[ "$(curl -fs -o /dev/null -w '%{http_code}' "$base/readyz")" = 200 ] || { "${compose_pg[@]}" logs >&2; fail "the balancer never answered /readyz"; }
created=$(curl -fs -o /dev/null -w '%{http_code}' -X PUT "$base/v1/items/shared/ratings/u-1" -H 'Content-Type: application/json' -d '{"stars": 4}')
[ "$created" = 201 ] || fail "PUT through the balancer answered $created"
# front_ip REPLICA: the address of replica REPLICA on the network the balancer reaches it by.
front_ip() { docker inspect --format '{{(index .NetworkSettings.Networks "ratings-pg-ci_front").IPAddress}}' "$("${compose_pg[@]}" ps -q "ratings-$1")"; }
for replica in 1 2 3; do
    curl -fs "http://$(front_ip "$replica"):8080/v1/items/shared" | grep -q '"count":1' || fail "replica $replica does not read the rating"
done
say "a rating written through the balancer is read by each of the three replicas"
# A replica cut off from its database stays up but is not ready: the balancer's check of /readyz
# takes it out of rotation within 5 s, the others answer everything, and it comes back once its
# database is reachable again.
replica2=$("${compose_pg[@]}" ps -q ratings-2)
replica2_ip=$(front_ip 2)
# served_by_2: how many requests of the API (not the balancer's checks) replica 2 has logged.
served_by_2() { docker logs "$replica2" 2>/dev/null | grep -cE '"(GET|PUT|DELETE) /v1/'; }
docker network disconnect ratings-pg-ci_db "$replica2"
for _ in $(seq 50); do
    [ "$(curl -s -m 3 -o /dev/null -w '%{http_code}' "http://$replica2_ip:8080/readyz")" != 200 ] && break
    sleep 0.2
done
[ "$(curl -s -m 3 -o /dev/null -w '%{http_code}' "http://$replica2_ip:8080/readyz")" != 200 ] || fail "replica 2 stayed ready without its database"
sleep 5
before=$(served_by_2)
answered=0
for i in $(seq 30); do
    status=$(curl -s -o /dev/null -w '%{http_code}' -X PUT "$base/v1/items/shared/ratings/unready-$i" -H 'Content-Type: application/json' -d '{"stars": 5}')
    [ "$status" = 201 ] && answered=$((answered + 1))
    status=$(curl -s -o /dev/null -w '%{http_code}' "$base/v1/items/shared")
    [ "$status" = 200 ] && answered=$((answered + 1))
done
[ "$answered" = 60 ] || fail "with replica 2 unready the balancer answered $answered of 60 requests with 2xx"
[ "$(served_by_2)" = "$before" ] || fail "replica 2 still received requests 5 s after its /readyz failed"
say "replica 2 cut off from its database: its /readyz failed, the balancer stopped sending it requests within 5 s, and 60 of 60 requests were answered 2xx"
docker network connect ratings-pg-ci_db "$replica2"
back=""
for _ in $(seq 100); do
    curl -s -o /dev/null "$base/v1/items/shared"
    [ "$(served_by_2)" -gt "$before" ] && { back=yes; break; }
    sleep 0.2
done
[ -n "$back" ] || fail "replica 2 was not back in rotation 20 s after its database came back"
say "its database reachable again, replica 2 was back in rotation"
docker kill "$("${compose_pg[@]}" ps -q ratings-1)" >/dev/null
answered=0
for i in $(seq 30); do
    status=$(curl -s -o /dev/null -w '%{http_code}' -X PUT "$base/v1/items/shared/ratings/after-$i" -H 'Content-Type: application/json' -d '{"stars": 3}')
    [ "$status" = 201 ] && answered=$((answered + 1))
done
[ "$answered" = 30 ] || fail "with one replica killed the balancer answered $answered of 30 writes"
curl -fs "$base/v1/items/shared" | grep -q '"count":61' || fail "the writes after the kill are not all counted"
say "with replica 1 killed, 30 of 30 writes through the balancer were answered and counted"
"${compose_pg[@]}" down -v >/dev/null 2>&1
[ -z "$(docker ps -aq)" ] || fail "containers left after the PostgreSQL round trip"
say "compose.postgres.yaml: down -v removed everything"
kill "$(cat "$lab/dockerd.pid")"
for _ in $(seq 100); do kill -0 "$(cat "$lab/dockerd.pid" 2>/dev/null || echo 0)" 2>/dev/null || break; sleep 0.1; done
! pgrep -f "dockerd --data-root $lab" >/dev/null || fail "dockerd still runs"
! pgrep -f "containerd.*$lab" >/dev/null || fail "containerd still runs"
say "daemon stopped, nothing left running"
say "passed in $(( $(date +%s) - started ))s; image size $((size / 1024 / 1024)) MiB ($(((size - base_size) / 1024 / 1024)) MiB above the base)"
