#!/usr/bin/env python3
"""The durable PUT beside the floor under it: bench/put-floor-server.c (the least any server can
do to answer bench/put-ratings.lua's requests durably: one C thread, the write reference's
statements, one transaction per turn of its epoll loop, answers as long as the service's) and the
service itself, each under the benchmark's PUT load, and the write reference
(bench/sqlite-ceiling.c) writing as many ratings after each, in alternating rounds on fresh
databases, all pinned to core 1 and wrk to core 0 as in scripts/bench.sh. Prints each round's
rates, CPU time per request (user + kernel) and ratios to the reference, then their medians.
Run it with scripts/put-floor.sh."""
import argparse, os, statistics, subprocess, tempfile

from benchlib import PutFloor, Server, SQLiteCeiling, log, measure_once, remove_database, seed

PUT_PATH = "/v1/items/bench-5000/ratings/rp0-50000" # ids as long as the load's


def answer_bytes(base):
    """The length of the service's answer to a new rating, head and body."""
    sizes = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{size_header} %{size_download}", "-X", "PUT",
                            "-H", "content-type: application/json", "-d", '{"stars":3}', base + PUT_PATH],
                           capture_output=True, text=True, check=True).stdout.split()
    return sum(int(size) for size in sizes)


def cpu_us(result):
    return result["user_us"] + result["system_us"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=8)
    arguments = parser.parse_args()
    work = tempfile.mkdtemp(prefix="ratings-put-floor-")
    ceiling = SQLiteCeiling(work)
    database = os.path.join(work, "service.sqlite")
    probe = Server(arguments.binary, database, os.path.join(work, "probe.log"))
    try:
        seed(probe.port, items=1)
        length = answer_bytes(probe.base)
    finally:
        probe.stop()
    remove_database(database)
    floor = PutFloor(work, length)
    rows = []
    for round_number in range(1, arguments.rounds + 1):
        process, base = floor.start()
        try:
            os.sync()
            floor_result = measure_once(base + "/", seconds=arguments.seconds, script="put-ratings.lua", run=f"f{round_number}",
                                        cpu_pids=(process.pid,))
        finally:
            answered = PutFloor.stop(process)
        if answered < floor_result["requests"]:
            raise SystemExit(f"the floor server answered {answered} requests, wrk counted {floor_result['requests']}")
        service = Server(arguments.binary, database, os.path.join(work, f"service-{round_number}.log"))
        try:
            seed(service.port) # the 10,000 items, here with one rating each
            os.sync()
            service_result = measure_once(service.base + "/", seconds=arguments.seconds, script="put-ratings.lua",
                                          run=f"s{round_number}", cpu_pids=service.pids)
        finally:
            service.stop()
        remove_database(database)
        if service_result["errors"] or floor_result["errors"]:
            raise SystemExit(f"errors under load: service {service_result['errors']}, floor {floor_result['errors']}")
        os.sync()
        reference = ceiling.run(arguments.seconds * 6, ratings=service_result["requests"], run=service_result["bench_run"])
        reference_cpu = sum(ceiling.cpu_us[-1].values())
        rows.append((floor_result["rps"], cpu_us(floor_result), service_result["rps"], cpu_us(service_result),
                     reference, reference_cpu, floor_result["steal_pct"], service_result["steal_pct"], ceiling.steal_pct[-1]))
        log(f"round {round_number} done")
    print(f"answers of {length} bytes; {arguments.seconds} s per run; CPU µs per request (user + kernel)")
    print()
    print("| round | floor req/s (CPU µs) | service req/s (CPU µs) | reference ratings/s (CPU µs) "
          "| floor ÷ reference | service ÷ reference | service ÷ floor | steal % floor / service / reference |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for number, (floor_rps, floor_cpu, service_rps, service_cpu, reference_rps, reference_cpu, *steal) in enumerate(rows, 1):
        print(f"| {number} | {floor_rps:,.0f} ({floor_cpu:.1f}) | {service_rps:,.0f} ({service_cpu:.1f}) "
              f"| {reference_rps:,.0f} ({reference_cpu:.1f}) | {floor_rps / reference_rps:.2f}× | {service_rps / reference_rps:.2f}× "
              f"| {service_rps / floor_rps:.2f}× | {' / '.join(f'{value:.1f}' for value in steal)} |")
    median = statistics.median
    print(f"| median | {median(r[0] for r in rows):,.0f} ({median(r[1] for r in rows):.1f}) "
          f"| {median(r[2] for r in rows):,.0f} ({median(r[3] for r in rows):.1f}) "
          f"| {median(r[4] for r in rows):,.0f} ({median(r[5] for r in rows):.1f}) "
          f"| {median(r[0] / r[4] for r in rows):.2f}× | {median(r[2] / r[4] for r in rows):.2f}× "
          f"| {median(r[2] / r[0] for r in rows):.2f}× | |")


if __name__ == "__main__":
    main()
