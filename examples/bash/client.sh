#!/usr/bin/env bash
# A Paysign client in bash, with curl and openssl only.
#
# Checks its signing against libs/signing/vectors.json, then lists banks, runs
# an account enquiry, creates a payin of 1500.50 and reads it back.
# Configuration: PAYSIGN_BASE_URL, PAYSIGN_API_KEY, PAYSIGN_SECRET_KEY,
# PAYSIGN_MERCHANT_ID, PAYSIGN_TENANT_ID, and PAYSIGN_VECTORS.
#
# bash cannot parse JSON, so each body is written as a list of fields, one
# "key<TAB>json-value" per line, and both the body sent and its canonical form
# are built from that one list: they can never disagree.
set -euo pipefail
export LC_ALL=C # sort by byte: the same as UTF-16 order for the ASCII keys used here
VECTORS="${PAYSIGN_VECTORS:-$(dirname "$0")/../../libs/signing/vectors.json}"

# The JSON body: {"key":value,...} in list order, values as written.
body_of() { local sep="" out="{"; while IFS=$'\t' read -r k v; do out+="$sep\"$k\":$v"; sep=","; done; printf '%s}' "$out"; }
# The canonical body: null fields left out, keys sorted, string quotes removed (the values here have no escapes).
canonical_of() { { grep -v $'\tnull$' || true; } | sort -t $'\t' -k1,1 | awk -F '\t' '{ v=$2; if (v ~ /^".*"$/) v=substr(v, 2, length(v)-2); printf "%s%s=%s", (NR>1?"&":""), $1, v }'; }

# sign KEY SECRET NONCE TIMESTAMP METHOD PATH CANONICAL -> the signature
sign() {
  local hash; hash=$(printf '%s' "$7" | openssl dgst -sha256 -r | cut -d' ' -f1)
  printf '%s\n%s\n%s\n%s\n%s\n%s' "$1" "$3" "$4" "$5" "$6" "$hash" | openssl dgst -sha256 -hmac "$2" -r | cut -d' ' -f1
}

# A field of a vector's request or answer ("nonce", "signature"), read from vectors.json.
vector_field() { awk -v name="\"name\": \"$1\"" -v field="\"$2\": " 'index($0, name) { found = 1 } found && index($0, field) { sub(/.*": "/, ""); sub(/",?$/, ""); print; exit }' "$VECTORS"; }

check_vector() { # NAME METHOD PATH, and the field list of its body on stdin
  local canonical got want
  canonical=$(canonical_of)
  got=$(sign pk_test_vectors sk_test_vectors_do_not_use "$(vector_field "$1" nonce)" 1767225600 "$2" "$3" "$canonical")
  want=$(vector_field "$1" signature)
  [ -n "$want" ] && [ "$got" = "$want" ] || { echo "vector $1 does not match: got $got, want $want" >&2; exit 1; }
}
check_vector get-without-body GET /payment/merchant-api/banks < /dev/null
check_vector amount-1000.50 POST /payment/api/payins <<< $'amount\t1000.50\ncurrency\t"NGN"'
check_vector null-fields-omitted POST /payment/merchant-api/account/inquiry <<< $'bankCode\t"058"\naccountNumber\t"0123456785"\nreference\tnull'
check_vector key-order-utf16 POST /payment/api/payins <<< $'b\t"1"\nB\t"2"\na\t"3"\nA\t"4"\n_\t"5"\n0\t"6"\na_b\t"7"\naB\t"8"'
echo "signing matches the vectors get-without-body, amount-1000.50, null-fields-omitted and key-order-utf16"

# call METHOD PATH [field list on stdin for a body] -> prints the answer's body; exits on a non-2xx answer, printing it
call() {
  local method=$1 path=$2 body="" canonical="" nonce timestamp signature
  if [ "$method" != GET ]; then
    local fields; fields=$(cat)
    body=$(body_of <<< "$fields"); canonical=$(canonical_of <<< "$fields")
  fi
  nonce=$(openssl rand -hex 16); timestamp=$(date +%s)
  signature=$(sign "$PAYSIGN_API_KEY" "$PAYSIGN_SECRET_KEY" "$nonce" "$timestamp" "$method" "$path" "$canonical")
  local answer status with_body=()
  [ -z "$body" ] || with_body=(-H "Content-Type: application/json" --data-binary "$body")
  answer=$(curl -sS -w '\n%{http_code}' -X "$method" "${PAYSIGN_BASE_URL%/}$path" \
    -H "X-API-KEY: $PAYSIGN_API_KEY" -H "X-Nonce: $nonce" -H "X-Timestamp: $timestamp" -H "X-Signature: $signature" \
    -H "X-Merchant-ID: $PAYSIGN_MERCHANT_ID" -H "X-Tenant-ID: $PAYSIGN_TENANT_ID" "${with_body[@]}")
  status=${answer##*$'\n'}; answer=${answer%$'\n'*}
  [[ $status == 2* ]] || { echo "$method $path answered $status: $answer" >&2; exit 1; }
  printf '%s' "$answer"
}

banks=$(call GET /payment/merchant-api/banks)
echo "$(grep -o '"code"' <<< "$banks" | wc -l) banks"
call POST /payment/merchant-api/account/inquiry <<< $'bankCode\t"058"\naccountNumber\t"0123456785"' | grep -o '"accountName":"[^"]*"'
reference="bash-$(openssl rand -hex 6)"
call POST /payment/api/payins <<< $'amount\t1500.50\ncurrency\t"NGN"\ncustomerEmail\t"ada@example.com"\nreference\t"'"$reference"'"' > /dev/null
read=$(call GET "/payment/api/payins/$reference")
grep -q '"amount":1500.5,' <<< "$read" && grep -q '"status":"PENDING"' <<< "$read" || { echo "the payin read back differs: $read" >&2; exit 1; }
echo "payin $reference: PENDING, 1500.5 NGN"
