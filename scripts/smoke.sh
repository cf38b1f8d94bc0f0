#!/usr/bin/env bash
# Starts the built gateway on a scratch SQLite database, waits for /api/healthz, checks that / serves
# the built console and that HTTPS answers with the certificate it generated, stops it with SIGTERM
# and checks it exited cleanly.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
tls_port=$((port + 1))
trap 'rm -rf "$dir"' EXIT
MARGIN_DATA_DIR="$dir" PORT="$port" MARGIN_TLS_PORT="$tls_port" MARGIN_BOOTSTRAP_ADMIN_PASSWORD=smoke-test-password LOG_LEVEL=warn \
  MARGIN_CONSOLE_DIR=packages/console/dist \
  node packages/server-express/dist/cli.js serve &
pid=$!
for _ in $(seq 1 100); do
  if body=$(curl -fsS "http://127.0.0.1:$port/api/healthz" 2>/dev/null); then break; fi
  sleep 0.1
done
echo "healthz: ${body:-<no answer>}"
page=$(curl -fsS -H 'accept: text/html' "http://127.0.0.1:$port/clients" 2>/dev/null || true)
# Verified against the generated certificate only: never -k.
tls_body=$(curl -fsS --cacert "$dir/tls/margin-tls-cert.pem" "https://127.0.0.1:$tls_port/api/healthz" 2>/dev/null || true)
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
case "$body" in *'"status":"ok"'*'"database"'*'"worker"'*) ;; *) echo "unexpected health answer"; exit 1 ;; esac
case "$page" in *'<div id="root">'*) echo "console: served" ;; *) echo "the console page was not served at /"; exit 1 ;; esac
case "$tls_body" in *'"status":"ok"'*) echo "https: verified" ;; *) echo "HTTPS did not answer with its certificate"; exit 1 ;; esac
[ "$status" -eq 0 ] || { echo "gateway exited with $status after SIGTERM"; exit 1; }
echo "smoke ok"
