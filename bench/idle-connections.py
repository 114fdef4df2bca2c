"""Opens N keep-alive connections to HOST:PORT, makes one request on each, then holds them idle
until killed. Used by the benchmark to measure RSS with idle connections open."""
import socket, sys, time

host, port, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
held = []
for _ in range(count):
    s = socket.create_connection((host, port))
    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n")
    s.recv(4096)
    held.append(s)
print("idle connections open", flush=True)
time.sleep(3600)
