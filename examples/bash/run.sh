#!/usr/bin/env bash
# Runs the bash client: bash, curl and openssl.
set -euo pipefail
exec bash "$(dirname "$0")/client.sh"
