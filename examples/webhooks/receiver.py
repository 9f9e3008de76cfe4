# A webhook receiver in Python 3, standard library only. Run:
#   PAYSIGN_WEBHOOK_SECRET=whsec_... python3 receiver.py 4242
import base64, hashlib, hmac, http.server, json, os, sys, time

KEY = base64.b64decode(os.environ["PAYSIGN_WEBHOOK_SECRET"].removeprefix("whsec_"))

class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))  # raw bytes: never re-serialise before verifying
        msg_id, ts = self.headers["webhook-id"], self.headers["webhook-timestamp"]
        expected = base64.b64encode(hmac.new(KEY, f"{msg_id}.{ts}.".encode() + body, hashlib.sha256).digest()).decode()
        sent = [s[3:] for s in self.headers["webhook-signature"].split(" ") if s.startswith("v1,")]
        fresh = abs(time.time() - int(ts)) <= 300
        ok = fresh and any(hmac.compare_digest(expected, s) for s in sent)
        self.send_response(200 if ok else 400); self.end_headers()
        if ok:  # deduplicate on msg_id: the same event may arrive twice
            event = json.loads(body)
            print(msg_id, event["type"], event["data"]["reference"], flush=True)

http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Receiver).serve_forever()
