#!/usr/bin/env bash
# Fairness of gevent workers between keep-alive connections: GET /v1/health under wrk, the repo's gunicorn config
# (each request first yields to the greenlets ready to run: post_worker_init) against the same config without that
# hook, alternating, in one run.
#
#   bench/fair_greenlets.sh [ROUNDS]        # default 3; REDIS_URL (redis://127.0.0.1:6379/15), DURATION (6s),
#                                           # CONNECTIONS (32), WORKERS (2)
#
# Prints wrk's req/s and latency percentiles per round, then the medians of each side. Loopback only; every server
# it starts is stopped on exit.
set -euo pipefail

cd "$(dirname "$0")/.."
GUNICORN=${VENV:-$PWD/.venv}/bin/gunicorn
PY=${VENV:-$PWD/.venv}/bin/python
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/15} TG_LIMITS=off
ROUNDS=${1:-3}
DURATION=${DURATION:-6s}
CONNECTIONS=${CONNECTIONS:-32}
WORKERS=${WORKERS:-2}
WORK=$(mktemp -d)
SERVER_PID=""
trap '[[ -n $SERVER_PID ]] && kill "$SERVER_PID" 2>/dev/null; rm -rf "$WORK"' EXIT

# The same settings without the hook: the variant the repo's config is measured against.
printf 'exec(open("service/gunicorn_conf.py").read())\ndel post_worker_init\n' >"$WORK/unfair_conf.py"

run() { # run NAME CONFIG: one round; appends "NAME rps p50 p90 p99" (ms) to $WORK/results
    local port
    port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$GUNICORN" --config "$2" --bind "127.0.0.1:$port" --workers "$WORKERS" 'service:create_app()' \
        >"$WORK/gunicorn.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/v1/health" >/dev/null && break; sleep 0.1; done
    wrk -t 2 -c "$CONNECTIONS" -d 2s "http://127.0.0.1:$port/v1/health" >/dev/null # warm-up
    wrk --latency -t 2 -c "$CONNECTIONS" -d "$DURATION" "http://127.0.0.1:$port/v1/health" >"$WORK/wrk.out"
    kill "$SERVER_PID" && wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
    awk -v name="$1" '
        function ms(v) { return v ~ /us$/ ? v / 1000 : v ~ /ms$/ ? v + 0 : v * 1000 }
        $1 == "50%" { p50 = ms($2) } $1 == "90%" { p90 = ms($2) } $1 == "99%" { p99 = ms($2) }
        $1 == "Requests/sec:" { rps = $2 }
        END { printf "%s %.0f %.2f %.2f %.2f\n", name, rps, p50, p90, p99 }
    ' "$WORK/wrk.out" | tee -a "$WORK/results"
}

echo "name req/s p50 p90 p99 (ms); wrk -t 2 -c $CONNECTIONS -d $DURATION, $WORKERS gevent workers, load: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
    run fair service/gunicorn_conf.py
    run unfair "$WORK/unfair_conf.py"
done
echo "medians (load: $(cut -d' ' -f1-3 /proc/loadavg)):"
for name in fair unfair; do
    for column in 2 3 4 5; do
        grep "^$name " "$WORK/results" | cut -d' ' -f"$column" | sort -n | awk '{ v[NR] = $1 } END { printf "%s ", v[int((NR + 1) / 2)] }'
    done | awk -v name="$name" '{ printf "%-7s req/s %s  p50 %s  p90 %s  p99 %s ms\n", name, $1, $2, $3, $4 }'
done
