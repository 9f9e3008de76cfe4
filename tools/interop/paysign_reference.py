#!/usr/bin/env python3
"""Independent reference implementation of the request-signing protocol.

Written from docs/protocol.md alone, with the Python standard library, to prove
that another language can agree with the TypeScript implementation byte for
byte. `check` runs it over libs/signing/vectors.json.

Usage:
  paysign_reference.py check VECTORS_JSON
  paysign_reference.py sign API_KEY SECRET NONCE TIMESTAMP METHOD PATH [BODY_JSON]
  paysign_reference.py vector VECTORS_JSON NAME DESCRIPTION NONCE BODY_JSON
      prints a new POST /payment/api/payins vector, with the credentials and
      timestamp of VECTORS_JSON, for adding to it
"""
import hashlib
import hmac
import json
import sys


class NotSignable(ValueError):
    pass


def _reject_constant(name):
    raise NotSignable("INVALID_JSON")


def _pairs(pairs):
    seen = set()
    for key, _ in pairs:
        if key in seen:
            raise NotSignable("DUPLICATE_KEY")
        seen.add(key)
    return ("object", pairs)


def canonical_body(raw: bytes) -> str:
    if len(raw) == 0:
        return ""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise NotSignable("INVALID_UTF8")
    if text.startswith("\ufeff"):
        raise NotSignable("INVALID_JSON")
    try:
        # parse_int/parse_float keep each number's exact source text.
        value = json.loads(text, object_pairs_hook=_pairs, parse_int=str, parse_float=str,
                           parse_constant=_reject_constant)
    except json.JSONDecodeError:
        raise NotSignable("INVALID_JSON")
    if not (isinstance(value, tuple) and value[0] == "object"):
        raise NotSignable("BODY_NOT_OBJECT")
    rendered = []
    for key, v in value[1]:
        if v is None:
            continue
        if isinstance(v, (tuple, list)):
            raise NotSignable("NESTED_VALUE")
        if v is True:
            v = "true"
        elif v is False:
            v = "false"
        rendered.append((key, v))
    for key, v in rendered:
        for s in (key, v):
            try:
                s.encode("utf-8")
            except UnicodeEncodeError:
                raise NotSignable("INVALID_UTF8")
    # Sort by UTF-16 code unit, as JavaScript and Java compare strings.
    rendered.sort(key=lambda kv: kv[0].encode("utf-16-be"))
    return "&".join(f"{k}={v}" for k, v in rendered)


def sign(api_key, secret, nonce, timestamp, method, path, body: bytes):
    canonical = canonical_body(body)
    body_hash = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    base = "\n".join([api_key, nonce, str(timestamp), method.upper(), path, body_hash])
    signature = hmac.new(secret.encode("utf-8"), base.encode("utf-8"), hashlib.sha256).hexdigest()
    return {"canonicalBody": canonical, "bodySha256Hex": body_hash, "baseString": base, "signature": signature}


def check(vectors_path):
    with open(vectors_path, encoding="utf-8") as f:
        vectors = json.load(f)["vectors"]
    failures = 0
    for v in vectors:
        req = v["request"]
        body = b"" if req["body"] is None else req["body"].encode("utf-8")
        got = sign(req["apiKey"], req["secretKey"], req["nonce"], req["timestamp"], req["method"], req["path"], body)
        wrong = [f for f in ("canonicalBody", "bodySha256Hex", "baseString", "signature") if got[f] != v["want"][f]]
        for field in wrong:
            print(f"FAIL {v['name']}: {field}: got {got[field]!r}, want {v['want'][field]!r}")
        failures += 1 if wrong else 0
    passed = len(vectors) - failures
    with open(vectors_path, encoding="utf-8") as f:
        refusals = json.load(f).get("notSignable", [])
    for r in refusals:
        try:
            canonical_body(r["body"].encode("utf-8"))
            got = "signed"
        except NotSignable as e:
            got = str(e)
        if got == r["code"]:
            passed += 1
        else:
            failures += 1
            print(f"FAIL {r['name']}: got {got}, want {r['code']}")
    print(f"{passed} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2]))
    if len(sys.argv) == 7 and sys.argv[1] == "vector":
        with open(sys.argv[2], encoding="utf-8") as f:
            first = json.load(f)["vectors"][0]["request"]
        _, _, _, name, description, nonce, body = sys.argv
        request = {"apiKey": first["apiKey"], "secretKey": first["secretKey"], "nonce": nonce, "timestamp": first["timestamp"],
                   "method": "POST", "path": "/payment/api/payins", "body": body}
        want = sign(request["apiKey"], request["secretKey"], nonce, request["timestamp"], "POST", request["path"], body.encode("utf-8"))
        print(json.dumps({"name": name, "description": description, "request": request, "want": want}, ensure_ascii=False, indent=2))
        sys.exit(0)
    if len(sys.argv) == 2 and sys.argv[1] == "sign-lines":
        # One request per line of stdin, as JSON; one answer per line of stdout: many samples, one process.
        for line in sys.stdin:
            r = json.loads(line)
            print(json.dumps(sign(r["apiKey"], r["secretKey"], r["nonce"], str(r["timestamp"]), r["method"], r["path"], r["body"].encode("utf-8")), ensure_ascii=False))
        sys.exit(0)
    if len(sys.argv) in (8, 9) and sys.argv[1] == "sign":
        body = sys.argv[8].encode("utf-8") if len(sys.argv) == 9 else b""
        print(json.dumps(sign(*sys.argv[2:8], body), ensure_ascii=False))
        sys.exit(0)
    print(__doc__, file=sys.stderr)
    sys.exit(2)
