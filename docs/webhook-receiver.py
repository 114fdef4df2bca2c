#!/usr/bin/env python3
"""A webhook receiver for the ratings service: verifies each delivery's Standard Webhooks
signature, drops deliveries it has seen (delivery is at least once) and events older than one it
has applied for the same item (ordering is not guaranteed), and prints what it applied.

    WEBHOOK_SECRET=whsec_... python3 webhook-receiver.py [PORT]      (default 9090)
"""
import base64, hashlib, hmac, http.server, json, os, sys, time

SECRET = base64.b64decode(os.environ["WEBHOOK_SECRET"].removeprefix("whsec_"))
TOLERANCE_SECONDS = 5 * 60
seen_ids = set()     # a real consumer keeps these (and the versions) in its own database
item_versions = {}


def verified(headers, body):
    """Whether the signature is the service's and the timestamp recent (replays are refused)."""
    message_id, timestamp = headers.get("webhook-id", ""), headers.get("webhook-timestamp", "")
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
        return False
    signed = f"{message_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(SECRET, signed, hashlib.sha256).digest()).decode()
    # The header may carry several space-separated signatures (while a secret is rotated).
    return any(hmac.compare_digest(f"v1,{expected}", given) for given in headers.get("webhook-signature", "").split())


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if not verified(self.headers, body):
            self.send_response(401)
            self.end_headers()
            return
        # Answer at once; anything slow belongs on the consumer's own queue.
        self.send_response(204)
        self.end_headers()
        message_id = self.headers["webhook-id"]
        if message_id in seen_ids:
            return
        seen_ids.add(message_id)
        event = json.loads(body)
        data = event["data"]
        if "itemVersion" in data:
            if data["itemVersion"] < item_versions.get(data["itemId"], 0):
                print(f"skipped {event['type']}: item {data['itemId']} is already at version {item_versions[data['itemId']]}", flush=True)
                return
            item_versions[data["itemId"]] = data["itemVersion"]
            print(f"applied {event['type']}: item {data['itemId']} version {data['itemVersion']}, "
                  f"average {data['summary']['average']} of {data['summary']['count']}", flush=True)
        else:
            print(f"applied {event['type']}: rater {data['raterId']}", flush=True)

    def log_message(self, *arguments):
        pass


http.server.HTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 9090), Receiver).serve_forever()
