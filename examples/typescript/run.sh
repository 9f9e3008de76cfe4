#!/usr/bin/env bash
# Runs the TypeScript client with tsx (Node 20 runs no TypeScript by itself). In
# this repository tsx is installed; elsewhere `npx tsx` fetches it.
set -euo pipefail
cd "$(dirname "$0")"
exec npx --yes tsx client.ts
