"""Opens N connections to HOST:PORT and pipelines REQUESTS `GET /openapi.yaml` on each without
ever reading an answer, sending as the sockets take it, until killed: the attack of a client that
leaves its answers unread. Prints one line once every connection has sent all it could."""
import selectors, socket, sys, time

host, port, count, requests = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
payload = b"GET /openapi.yaml HTTP/1.1\r\nHost: bench\r\n\r\n" * requests
selector = selectors.DefaultSelector()
pending = {}
for _ in range(count):
    s = socket.create_connection((host, port))
    s.setblocking(False)
    pending[s] = memoryview(payload)
    selector.register(s, selectors.EVENT_WRITE)
announced, quiet_since = False, time.monotonic()
while True:
    for key, _ in selector.select(timeout=0.2):
        rest = pending[key.fileobj]
        try:
            sent = key.fileobj.send(rest)
        except (BlockingIOError, InterruptedError):
            continue
        except OSError:
            selector.unregister(key.fileobj)
            continue
        pending[key.fileobj] = rest[sent:]
        quiet_since = time.monotonic()
        if not pending[key.fileobj]:
            selector.unregister(key.fileobj)
    # Settled: everything sent, or a second in which no socket took a byte (the server reads no more).
    if not announced and (not selector.get_map() or time.monotonic() - quiet_since > 1):
        print("unread pipelines settled", flush=True)
        announced = True
