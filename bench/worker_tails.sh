#!/usr/bin/env bash
# The tails of gunicorn workers: GET /v1/health under wrk, the repo's gunicorn config (its post_worker_init freezes
# what the worker loaded out of the garbage collector's full passes and, with gevent, lets each request yield first to
# the greenlets ready to run) against the same config without that hook, alternating, in one run. Both log the length
# of every full collection (generation 2) in the workers.
#
#   bench/worker_tails.sh [ROUNDS]          # default 3; REDIS_URL (redis://127.0.0.1:6379/15), DURATION (6s),
#                                           # CONNECTIONS (32), WORKERS (2)
#
# Prints per round wrk's req/s and latency percentiles and the full collections (count, median and longest ms),
# then the medians of each side. Loopback only; every server it starts is stopped on exit.
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

# Both variants log each full collection's length (ms) to the server's standard error; the untuned one drops the hook.
cat >"$WORK/tuned_conf.py" <<'PY'
exec(open("service/gunicorn_conf.py").read())
_hook = post_worker_init
def post_worker_init(worker):
    import gc, sys, time
    _hook(worker) if _hook else None
    started = []
    def log(phase, info):
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif info["generation"] == 2:
            sys.stderr.write(f"full-collection-ms {1000 * (time.perf_counter() - started[0]):.1f}\n")
    gc.callbacks.append(log)
PY
sed 's/^_hook = post_worker_init$/_hook = None/' "$WORK/tuned_conf.py" >"$WORK/untuned_conf.py"

run() { # run NAME CONFIG: one round; appends "NAME rps p50 p90 p99 (ms) collections median longest (ms)" to results
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
    local collections
    collections=$(awk '$1 == "full-collection-ms" { print $2 }' "$WORK/gunicorn.log" | sort -n |
        awk '{ v[NR] = $1 } END { printf "%d %.1f %.1f", NR, NR ? v[int((NR + 1) / 2)] : 0, NR ? v[NR] : 0 }')
    awk -v name="$1" -v collections="$collections" '
        function ms(v) { return v ~ /us$/ ? v / 1000 : v ~ /ms$/ ? v + 0 : v * 1000 }
        $1 == "50%" { p50 = ms($2) } $1 == "90%" { p90 = ms($2) } $1 == "99%" { p99 = ms($2) }
        $1 == "Requests/sec:" { rps = $2 }
        END { printf "%s %.0f %.2f %.2f %.2f %s\n", name, rps, p50, p90, p99, collections }
    ' "$WORK/wrk.out" | tee -a "$WORK/results"
}

echo "name req/s p50 p90 p99 (ms), full collections: count median longest (ms); wrk -t 2 -c $CONNECTIONS -d $DURATION, $WORKERS gevent workers, load: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
    run tuned "$WORK/tuned_conf.py"
    run untuned "$WORK/untuned_conf.py"
done
echo "medians (load: $(cut -d' ' -f1-3 /proc/loadavg)):"
for name in tuned untuned; do
    for column in 2 3 4 5 6 7 8; do
        grep "^$name " "$WORK/results" | cut -d' ' -f"$column" | sort -n | awk '{ v[NR] = $1 } END { printf "%s ", v[int((NR + 1) / 2)] }'
    done | awk -v name="$name" '{ printf "%-8s req/s %s  p50 %s  p90 %s  p99 %s ms  full collections %s, %s / %s ms\n",
        name, $1, $2, $3, $4, $5, $6, $7 }'
done
