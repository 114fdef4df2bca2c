#!/usr/bin/env python3
"""A webhook endpoint that answers every POST with 204 after a delay: what the benchmark subscribes
to every event while it measures writes (`slow-endpoint.py PORT DELAY_MS`)."""
import asyncio, sys


async def answer(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0)
            await reader.readexactly(length)
            await asyncio.sleep(int(sys.argv[2]) / 1000)
            writer.write(b"HTTP/1.1 204 No Content\r\n\r\n")
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        writer.close()


async def main():
    server = await asyncio.start_server(answer, "127.0.0.1", int(sys.argv[1]))
    async with server:
        await server.serve_forever()

asyncio.run(main())
