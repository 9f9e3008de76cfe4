#!/usr/bin/env bash
# Runs the Java client as a single-file source program: Java 17 or later, no dependencies.
set -euo pipefail
cd "$(dirname "$0")"
exec java Client.java
