#!/usr/bin/env bash
# Load test of the service: gunicorn with service/gunicorn_conf.py over the real Redis, loaded by wrk.
#
#   bench/service.sh                               # the repo's config as it chooses (gevent, a worker per core)
#   bench/service.sh default sync:2 gthread:2x8    # worker settings to compare: sync:WORKERS, gthread:WORKERSxTHREADS
#   bench/service.sh default@/work/wt/old default  # SETTING@DIR: the service (and its gunicorn config) of another
#                                                   # checkout, e.g. an older revision, measured in the same run
#
# For each setting: FLUSHDB of the benchmark's Redis database, start gunicorn on 127.0.0.1, create GAMES started
# 2-player games over HTTP (bench/service_setup.py), then wrk (bench/service.lua) on GET /v1/health, seat views
# GET /v1/games/{id}, and plays + turn ends with real tokens; Redis memory per game before and after the plays,
# and (first setting only) of two whole games played over HTTP, without and with Idempotency-Keys.
# Environment: REDIS_URL (redis://127.0.0.1:6379/15; never database 0), DURATION (12s), CONNECTIONS (32),
# THREADS (2), GAMES (200). Everything it starts is stopped on exit, and the database is flushed again.
set -euo pipefail

cd "$(dirname "$0")/.."
PY=${VENV:-$PWD/.venv}/bin/python
GUNICORN=${VENV:-$PWD/.venv}/bin/gunicorn
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/15}
# Limits on as in production (TG_LIMITS=off to measure without), with budgets that this load, all from one
# address, never spends: their cost is measured, not their refusals.
export TG_CREATE_RATE=${TG_CREATE_RATE:-1000000/1} TG_CHANGE_RATE=${TG_CHANGE_RATE:-1000000/1}
DURATION=${DURATION:-12s}
CONNECTIONS=${CONNECTIONS:-32}
THREADS=${THREADS:-2}
GAMES=${GAMES:-200}
SETTINGS=("$@")
[[ ${#SETTINGS[@]} -gt 0 ]] || SETTINGS=(default)

WORK=$(mktemp -d)
SERVER_PID=""

stop_server() {
    if [[ -n $SERVER_PID ]]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
        SERVER_PID=""
    fi
}

cleanup() {
    stop_server
    timeout 20 "$PY" bench/service_setup.py flush || true
    rm -rf "$WORK"
}
trap cleanup EXIT

free_port() {
    "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_server SETTING: gunicorn on a free loopback port; sets SERVER_PID and BASE.
start_server() {
    local args=() dir=. setting=${1%%@*}
    if [[ $1 == *@* ]]; then dir=${1#*@}; fi
    case $setting in
        default) ;;
        # --threads 1: gunicorn turns sync workers with threads > 1 (the config's) into gthread ones
        sync:*) args=(--worker-class sync --workers "${setting#sync:}" --threads 1) ;;
        gthread:*x*)
            local spec=${setting#gthread:}
            args=(--worker-class gthread --workers "${spec%x*}" --threads "${spec#*x}")
            ;;
        *) echo "unknown worker setting: $1 (default, sync:N, gthread:WxT)" >&2 && exit 2 ;;
    esac
    local port
    port=$(free_port)
    BASE=http://127.0.0.1:$port
    # --bind after the config: loopback only (the config binds every interface, for containers).
    PORT=$port "$GUNICORN" --chdir "$dir" --config "$dir/service/gunicorn_conf.py" --bind "127.0.0.1:$port" "${args[@]}" \
        'service:create_app()' >"$WORK/gunicorn.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 100); do
        curl -fs "$BASE/v1/health" >/dev/null && return 0
        sleep 0.1
    done
    cat "$WORK/gunicorn.log" >&2
    echo "gunicorn did not answer /v1/health" >&2
    exit 1
}

server_cpu() { # CPU seconds (user + system) used so far by the gunicorn master and its workers
    local files=("/proc/$SERVER_PID/stat")
    for pid in $(pgrep -P "$SERVER_PID"); do files+=("/proc/$pid/stat"); done
    cat "${files[@]}" | awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); t += $12 + $13 } END { printf "%.2f", t / hz }'
}

redis_cpu() { # CPU seconds used so far by the whole Redis server (shared: other clients count too)
    redis-cli -u "$REDIS_URL" info cpu | awk -F: '/^used_cpu_(sys|user):/ { t += $2 } END { printf "%.2f", t }'
}

load() { # load MODE: one wrk run; its RESULT line, with the CPU seconds used meanwhile, goes to $WORK/results
    local server_before redis_before
    server_before=$(server_cpu)
    redis_before=$(redis_cpu)
    timeout 60 wrk --latency -t "$THREADS" -c "$CONNECTIONS" -d "$DURATION" --timeout 5s \
        -s bench/service.lua "$BASE" -- "$1" "$WORK/games.txt" "$THREADS" | tee "$WORK/wrk.out"
    local cpu
    cpu="server_cpu_s=$(awk "BEGIN { print $(server_cpu) - $server_before }")"
    cpu+=" redis_cpu_s=$(awk "BEGIN { print $(redis_cpu) - $redis_before }")"
    echo "CPU during the run: $cpu"
    grep '^RESULT ' "$WORK/wrk.out" | sed "s|^RESULT |$SETTING |; s|\$| $cpu|" >>"$WORK/results"
}

echo "machine: $(nproc) cores, $(uname -srm); Redis: $REDIS_URL; wrk -t $THREADS -c $CONNECTIONS -d $DURATION"
for SETTING in "${SETTINGS[@]}"; do
    echo
    echo "=== $SETTING  (load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
    timeout 20 "$PY" bench/service_setup.py flush
    start_server "$SETTING"
    echo "$(grep -m1 -o 'Using worker: .*' "$WORK/gunicorn.log" || true), $(pgrep -c -P "$SERVER_PID" || true) workers"
    timeout 300 "$PY" bench/service_setup.py games "$BASE" "$GAMES" "$WORK/games.txt"
    # warm-up (not reported): every worker imports and connects before the measured runs
    timeout 30 wrk -t "$THREADS" -c "$CONNECTIONS" -d 2s -s bench/service.lua "$BASE" -- views "$WORK/games.txt" \
        "$THREADS" >/dev/null
    for mode in health views plays; do
        echo "--- $mode  (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
        load "$mode"
    done
    echo "after the plays:"
    timeout 60 "$PY" bench/service_setup.py memory
    if [[ $SETTING == "${SETTINGS[0]}" ]]; then
        timeout 120 "$PY" bench/service_setup.py finished "$BASE"
    fi
    stop_server
done

echo
echo "=== summary (wrk -t $THREADS -c $CONNECTIONS -d $DURATION; latencies in ms; 2xx share of answers;"
echo "    CPU ms per request of gunicorn (all workers) and of the Redis server; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
awk '
    { for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
    { answers = f["2xx"] + f["4xx"] + f["other"]; share = answers ? 100 * f["2xx"] / answers : 0 }
    $2 == "health" { health = f["rps"] }
    {
        ratio = health ? sprintf("%.2f", f["rps"] / health) : "-"
        cpu = answers ? sprintf("%.2f / %.2f", 1000 * f["server_cpu_s"] / answers, 1000 * f["redis_cpu_s"] / answers) : "-"
        printf "%-12s %-6s %7s req/s  p50 %6s  p99 %6s  2xx %5.1f%%  x health %s  cpu ms/req %s\n",
            $1, $2, f["rps"], f["p50_ms"], f["p99_ms"], share, ratio, cpu
    }
' "$WORK/results"
