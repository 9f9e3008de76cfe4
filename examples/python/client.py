#!/usr/bin/env python3
"""A Paysign client in Python 3, standard library only.

Checks its signing against libs/signing/vectors.json, then lists banks, runs an
account enquiry, creates a payin of 1500.50 and reads it back. Configuration:
PAYSIGN_BASE_URL, PAYSIGN_API_KEY, PAYSIGN_SECRET_KEY, PAYSIGN_MERCHANT_ID,
PAYSIGN_TENANT_ID, and PAYSIGN_VECTORS (default: the repository's vectors).
"""
from __future__ import annotations

import hashlib, hmac, json, os, sys, time, urllib.error, urllib.request, uuid


def canonical_body(raw: bytes) -> str:
    """docs/protocol.md section 2: flat object, nulls left out, keys by UTF-16 unit, values as sent."""
    if not raw:
        return ""
    def pairs(items):
        if len({k for k, _ in items}) != len(items):
            raise ValueError("DUPLICATE_KEY")
        return items
    # parse_float/parse_int keep each number's text: 1500.50 stays "1500.50", not 1500.5.
    fields = json.loads(raw.decode("utf-8"), object_pairs_hook=pairs, parse_float=str, parse_int=str)
    rendered = []
    for key, value in fields:
        if value is None:
            continue
        if isinstance(value, list):  # a nested object arrives as a list of pairs
            raise ValueError("NESTED_VALUE")
        rendered.append((key, "true" if value is True else "false" if value is False else value))
    rendered.sort(key=lambda kv: kv[0].encode("utf-16-be"))
    return "&".join(f"{k}={v}" for k, v in rendered)


def sign(api_key, secret, nonce, timestamp, method, path, body: bytes) -> dict:
    canonical = canonical_body(body)
    body_hash = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    base = "\n".join([api_key, nonce, str(timestamp), method, path, body_hash])
    signature = hmac.new(secret.encode("utf-8"), base.encode("utf-8"), hashlib.sha256).hexdigest()
    return {"canonicalBody": canonical, "bodySha256Hex": body_hash, "baseString": base, "signature": signature}


def check_vectors(path: str) -> None:
    with open(path, encoding="utf-8") as f:
        vectors = json.load(f)["vectors"]
    for v in vectors:
        r = v["request"]
        body = b"" if r["body"] is None else r["body"].encode("utf-8")
        if sign(r["apiKey"], r["secretKey"], r["nonce"], r["timestamp"], r["method"], r["path"], body) != v["want"]:
            sys.exit(f"vector {v['name']} does not match: fix the signing before calling the service")
    print(f"signing matches all {len(vectors)} vectors")


def call(method: str, path: str, body: str | None = None) -> dict:
    env = os.environ
    raw = b"" if body is None else body.encode("utf-8")  # sign exactly the bytes sent
    nonce, timestamp = str(uuid.uuid4()), int(time.time())
    signed = sign(env["PAYSIGN_API_KEY"], env["PAYSIGN_SECRET_KEY"], nonce, timestamp, method, path, raw)
    headers = {"X-API-KEY": env["PAYSIGN_API_KEY"], "X-Nonce": nonce, "X-Timestamp": str(timestamp), "X-Signature": signed["signature"],
               "X-Merchant-ID": env["PAYSIGN_MERCHANT_ID"], "X-Tenant-ID": env["PAYSIGN_TENANT_ID"]}
    if body is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(env["PAYSIGN_BASE_URL"].rstrip("/") + path, data=raw if body is not None else None, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        sys.exit(f"{method} {path} answered {error.code}: {error.read().decode()}")


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    check_vectors(os.environ.get("PAYSIGN_VECTORS", os.path.join(here, "../../libs/signing/vectors.json")))
    banks = call("GET", "/payment/merchant-api/banks")
    print(f"{len(banks)} banks")
    enquiry = call("POST", "/payment/merchant-api/account/inquiry", '{"bankCode":"058","accountNumber":"0123456785"}')
    print(f"account name: {enquiry['accountName']}")
    reference = f"py-{uuid.uuid4().hex[:12]}"
    created = call("POST", "/payment/api/payins", '{"amount":1500.50,"currency":"NGN","customerEmail":"ada@example.com","reference":"%s"}' % reference)
    read = call("GET", f"/payment/api/payins/{reference}")
    if read["amount"] != 1500.5 or read["status"] != "PENDING" or read["reference"] != created["reference"]:
        sys.exit(f"the payin read back differs: {read}")
    print(f"payin {reference}: {read['status']}, {read['amount']} {read['currency']}, pay at {read['checkoutUrl']}")


if __name__ == "__main__":
    main()
