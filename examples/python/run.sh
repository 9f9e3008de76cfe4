#!/usr/bin/env bash
# Runs the Python client: Python 3.9 or later, standard library only.
set -euo pipefail
exec python3 "$(dirname "$0")/client.py"
