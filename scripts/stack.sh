#!/usr/bin/env bash
# The local stack: `scripts/stack.sh start` installs what is missing, starts PostgreSQL and the Tansu broker on
# loopback, creates the topics, builds and starts the six services, and prints where each listens.
# `stop` stops everything; `status` shows what runs; `logs SERVICE` follows one service's log;
# `restart [COMPONENT]` restarts everything, or one component: tansu, postgres or a service.
# Mail from auth (reset links, PIN codes) goes to a local mail sink (aiosmtpd) that keeps it in .stack/mail/new/,
# unless .env.auth names a real SMTP server (SMTP_HOST, SMTP_TLS, SMTP_USERNAME/SMTP_PASSWORD).
# State (database files, logs, generated dev keys) lives in .stack/ and survives restarts.
# STACK_JOURNEYS=1 with start or restart: the journey profile, which points every provider (Open-Meteo, Overpass,
# Yelp, Nominatim, APNs, SMTP, the identity provider) at the fakes `scripts/journeys.sh` runs while it runs the apps'
# journeys against this stack (an operator's smoke test); STACK_JOURNEYS=0 drops it. Not for a stack real apps use.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib.sh"

PG_PORT="${STACK_POSTGRES_PORT:-55432}"
KAFKA_PORT="${STACK_KAFKA_PORT:-59092}"
MAIL_PORT="${STACK_MAIL_PORT:-58025}"
BUILD_CONFIGURATION="${STACK_BUILD_CONFIGURATION:-debug}"
SERVICES=(weather-fetcher warning-detector places-importer auth analytics-aggregator appointment-booker)
# STACK_SERVICE_PORTS: the six services' ports in the order above (a second stack beside the first, as the fault
# suite starts one); STATE_DIR: where that stack keeps its state.
IFS=, read -r -a service_ports <<<"${STACK_SERVICE_PORTS:-8081,8082,8083,8084,8085,8086}"
[ "${#service_ports[@]}" -eq "${#SERVICES[@]}" ] || { echo "STACK_SERVICE_PORTS needs ${#SERVICES[@]} ports" >&2; exit 64; }
declare -A PORTS=()
for i in "${!SERVICES[@]}"; do PORTS[${SERVICES[$i]}]=${service_ports[$i]}; done
# STACK_METRICS_PORTS: where each service serves /metrics (never on its public port); default each port + 1000.
IFS=, read -r -a metrics_ports <<<"${STACK_METRICS_PORTS:-}"
declare -A METRICS_PORTS=()
for i in "${!SERVICES[@]}"; do METRICS_PORTS[${SERVICES[$i]}]=${metrics_ports[$i]:-$((service_ports[$i] + 1000))}; done

schema_of() { echo "${1//-/_}"; }

bootstrap_database() {
  # A server that accepts and never answers must not hold the script: 10 s to connect.
  export PGCONNECT_TIMEOUT=10
  local psql=("$(pg_bin)/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -v ON_ERROR_STOP=1 -q)
  "${psql[@]}" -d postgres -tc "SELECT 1 FROM pg_database WHERE datname = 'platform'" | grep -q 1 \
    || "${psql[@]}" -d postgres -c "CREATE DATABASE platform"
  # Roles, schemas and extensions from the registry of the services (platformctl render-services), the same file
  # the compose deployment runs; no passwords here (the local cluster trusts loopback).
  "${psql[@]}" -d platform -f "$root/deploy/postgres/bootstrap.sql"
}

dev_keys() {
  mkdir -p "$STATE_DIR"
  if [ ! -f "$STATE_DIR/keys.env" ]; then
    "$root/.build/$BUILD_CONFIGURATION/platformctl" generate-keys >"$STATE_DIR/keys.env"
    chmod 600 "$STATE_DIR/keys.env"
    log "generated a development token key pair in $STATE_DIR/keys.env (not committed)"
  fi
  # A state directory from before READING_KEY or ERASED_ACCOUNTS_KEY was required gets one of its own.
  if ! grep -q '^READING_KEY=' "$STATE_DIR/keys.env"; then
    echo "READING_KEY=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')" >>"$STATE_DIR/keys.env"
  fi
  if ! grep -q '^ERASED_ACCOUNTS_KEY=' "$STATE_DIR/keys.env"; then
    echo "ERASED_ACCOUNTS_KEY=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')" >>"$STATE_DIR/keys.env"
  fi
  if [ ! -f "$STATE_DIR/telemetry.env" ]; then
    # One random telemetry key per app (N1), for the local apps to send with X-App-Key.
    local app entries=()
    for app in weather places horoscope survey; do entries+=("$app=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"); done
    (IFS=';'; echo "TELEMETRY_APP_KEYS=${entries[*]}") >"$STATE_DIR/telemetry.env"
    chmod 600 "$STATE_DIR/telemetry.env"
    log "generated development telemetry keys in $STATE_DIR/telemetry.env (not committed)"
  fi
}

# journey_profile: with STACK_JOURNEYS=1, the settings, keys and secrets the journeys' fakes share with this stack,
# generated once into $STATE_DIR/journeys/ (0700): the fakes' ports (free now, kept from then on), the APNs
# certificate the services trust and the provider key they sign with, the identity provider's key, the payment
# webhook secret and the first admin's password. With STACK_JOURNEYS=0 the profile is removed.
journey_profile() {
  local dir="$STATE_DIR/journeys"
  if [ "${STACK_JOURNEYS:-}" = 0 ]; then
    [ -d "$dir" ] && log "journey profile removed: the providers are the configured ones again"
    rm -rf "$dir"
    return 0
  fi
  [ "${STACK_JOURNEYS:-}" = 1 ] && [ ! -f "$dir/settings.env" ] || return 0
  mkdir -p "$dir"
  chmod 700 "$dir"
  local weather places push mail idp
  # Ports picked together with the stack's own when the caller picked those (journeys-on-stack.sh): picked apart,
  # a port still free now could be one of the services' that is not bound yet.
  if [ -n "${STACK_JOURNEY_PORTS:-}" ]; then
    read -r weather places push mail idp <<<"$STACK_JOURNEY_PORTS"
  else
    read -r weather places push mail idp < <(free_ports 5)
  fi
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 3650 -subj /CN=localhost \
    -addext subjectAltName=DNS:localhost -keyout "$dir/apns-key.pem" -out "$dir/apns-cert.pem" 2>/dev/null
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$dir/push-key.pem" 2>/dev/null
  openssl genpkey -algorithm ed25519 -out "$dir/idp-key.pem" 2>/dev/null
  local secret password
  secret="whsec-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  password="journey-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')-9"
  # The journeys' own settings (Tests/StackJourneyTests): each checks that the stack has the ones it needs. Their
  # installs rate, add places and apply as partners at once: INSTALL_TRUST_AFTER_HOURS=0 trusts every install.
  # The fake Open-Meteo listens only while the weather journey runs, minutes after the stack is up: the stack refreshes
  # only the cities a journey viewed (no map cities), and its provider circuit does not open on the failures of the
  # time between journeys, or the weather journey's first view would be refused by the open circuit.
  cat >"$dir/settings.env" <<ENV
OPEN_METEO_BASE_URL=http://127.0.0.1:$weather
WEATHER_REFRESH_INTERVAL_SECONDS=10
WEATHER_REFRESH_TICK_MS=1000
WEATHER_MAP_MIN_POPULATION=100000000
WEATHER_CIRCUIT_FAILURES=1000
PLACES_OVERPASS_BASE_URL=http://127.0.0.1:$places
PLACES_YELP_BASE_URL=http://127.0.0.1:$places
PLACES_NOMINATIM_BASE_URL=http://127.0.0.1:$places
PLACES_IMPORT_AREAS=bangkok:13.70,100.45,13.80,100.55
PLACES_IMPORT_INTERVAL_SECONDS=30
PUSH_BASE_URL=https://localhost:$push
PUSH_CA_FILE=$dir/apns-cert.pem
PUSH_TEAM_ID=TEAM123456
PUSH_KEY_ID=KEY7654321
SMTP_HOST=127.0.0.1
SMTP_PORT=$mail
SMTP_TLS=none
BOOTSTRAP_ADMIN_EMAIL=admin@journey.test
BOOTSTRAP_ADMIN_PASSWORD=$password
PAYMENT_WEBHOOK_SECRET=$secret
OIDC_JWKS_URL=http://127.0.0.1:$idp/jwks.json
OIDC_ISSUER=https://idp.test
OIDC_AUDIENCES=horoscope=horoscope-app
OIDC_ALLOW_HTTP_LOOPBACK=true
APPOINTMENT_REMINDER_LEAD_MINUTES=10080
INSTALL_TRUST_AFTER_HOURS=0
ENV
  chmod 600 "$dir"/*
  log "journey profile on: providers point at the journeys' fakes (settings in $dir/settings.env)"
}

# is_running SERVICE: its process is alive and answers /health. A process that is alive but does not answer may
# be shutting down after SIGTERM: wait (up to 20 s) until it answers or exits, so a stopping service is not
# mistaken for a running one.
is_running() {
  local service=$1 port=${PORTS[$1]} pidfile="$STATE_DIR/$1.pid" deadline=$((SECONDS + 20))
  [ -f "$pidfile" ] || return 1
  while ((SECONDS < deadline)); do
    kill -0 "$(cat "$pidfile")" 2>/dev/null || return 1
    curl -fsS --connect-timeout 1 --max-time 2 "http://127.0.0.1:$port/health" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  # Alive for 20 s without answering /health: starting slowly, not stopping (wait_ready then gives it 60 s more).
  echo "$service (pid $(cat "$pidfile")) is alive but did not answer http://127.0.0.1:$port/health within 20 s; left running" >&2
  return 0
}

start_service() {
  local service=$1 port=${PORTS[$1]} pidfile="$STATE_DIR/$1.pid"
  if is_running "$service"; then return 0; fi
  # The settings the registry says the service refuses to start without, each from the generated keys.
  local required=() setting line
  for setting in $("$root/.build/$BUILD_CONFIGURATION/platformctl" required-settings "$service"); do
    line="$(grep "^$setting=" "$STATE_DIR/keys.env")" || { echo "$service requires $setting, which $STATE_DIR/keys.env lacks" >&2; return 1; }
    required+=("$line")
  done
  (
    export HTTP_PORT="$port" METRICS_PORT="${METRICS_PORTS[$service]}" POSTGRES_HOST=127.0.0.1 POSTGRES_PORT="$PG_PORT" POSTGRES_DATABASE=platform
    export KAFKA_BROKERS="127.0.0.1:$KAFKA_PORT" "${required[@]}"
    # Tansu holds a multi-partition fetch for the whole wait even when data arrives (see docs/benchmarks.md).
    export KAFKA_FETCH_WAIT_MAX_MS="${KAFKA_FETCH_WAIT_MAX_MS:-100}"
    # The memory broker forgets acknowledged messages when it restarts: after a producer rebuild the outbox
    # re-publishes what it sent in the last five minutes (consumers are idempotent). See docs/operations.md.
    export OUTBOX_REPUBLISH_WINDOW_SECONDS="${OUTBOX_REPUBLISH_WINDOW_SECONDS:-300}"
    # A crash prints its backtrace without line numbers or waiting for a debugger: the full symbolication of a
    # debug build takes minutes, during which the crashed process still holds its port.
    export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=yes,interactive=no,symbolicate=fast}"
    if [ "$service" = auth ]; then
      # The local mail sink, plain SMTP on loopback (development only: production sets SMTP_TLS and a login).
      export SMTP_HOST=127.0.0.1 SMTP_PORT="$MAIL_PORT" AUTH_RESET_URL="http://127.0.0.1:${PORTS[analytics-aggregator]}/dashboard/reset-password"
    fi
    [ "$service" = weather-fetcher ] && export WEATHER_CITY_CATALOGUE="$root/data/generated/cities15000.tsv"
    [ "$service" = analytics-aggregator ] && export "$(cat "$STATE_DIR/telemetry.env")"
    [ -f "$root/.env.$service" ] && set -a && source "$root/.env.$service" && set +a
    # The journey profile wins over .env files: its fakes are what the journeys check against.
    if [ -f "$STATE_DIR/journeys/settings.env" ]; then
      set -a && source "$STATE_DIR/journeys/settings.env" && set +a
      export PUSH_SIGNING_KEY="$(cat "$STATE_DIR/journeys/push-key.pem")"
    fi
    nohup "$root/.build/$BUILD_CONFIGURATION/$service" >>"$STATE_DIR/logs/$service.log" 2>&1 &
    echo $! >"$pidfile"
  )
}

wait_ready() { # wait_ready SERVICE
  local port=${PORTS[$1]} deadline=$((SECONDS + 60))
  while ((SECONDS < deadline)); do
    if curl -fsS --connect-timeout 1 --max-time 2 "http://127.0.0.1:$port/ready" >/dev/null 2>&1; then return 0; fi
    if ! kill -0 "$(cat "$STATE_DIR/$1.pid")" 2>/dev/null; then
      echo "$1 exited during start-up; last log lines:" >&2
      tail -n 20 "$STATE_DIR/logs/$1.log" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "$1 not ready after 60 s (waited for http://127.0.0.1:$port/ready to answer 200); see $STATE_DIR/logs/$1.log" >&2
  return 1
}

start_mail_sink() {
  if ! { [ -f "$STATE_DIR/mail.pid" ] && kill -0 "$(cat "$STATE_DIR/mail.pid")" 2>/dev/null; }; then
    log "starting the local mail sink on 127.0.0.1:$MAIL_PORT (mail kept in $STATE_DIR/mail/new)"
    nohup "$VENV/bin/python" -m aiosmtpd -n -l "127.0.0.1:$MAIL_PORT" -c aiosmtpd.handlers.Mailbox "$STATE_DIR/mail" \
      >>"$STATE_DIR/logs/mail.log" 2>&1 &
    echo $! >"$STATE_DIR/mail.pid"
  fi
}

start_broker() {
  if ! { [ -f "$STATE_DIR/tansu.pid" ] && kill -0 "$(cat "$STATE_DIR/tansu.pid")" 2>/dev/null; }; then
    log "starting the Tansu broker on 127.0.0.1:$KAFKA_PORT (memory storage: a broker restart empties the log)"
    start_tansu "$KAFKA_PORT" "$STATE_DIR/logs/tansu.log" "$STATE_DIR/tansu.pid"
  fi
}

# create_topics: once the broker listens; a broker that just started may refuse the first requests, so retry.
create_topics() {
  local i
  wait_for_port "$KAFKA_PORT" 30 "tansu broker"
  for ((i = 1; i <= 10; i++)); do
    "$root/.build/$BUILD_CONFIGURATION/platformctl" create-topics --brokers "127.0.0.1:$KAFKA_PORT" >/dev/null 2>&1 && return 0
    sleep 1
  done
  echo "could not create the topics on 127.0.0.1:$KAFKA_PORT; see $STATE_DIR/logs/tansu.log" >&2
  return 1
}

# restart_component NAME: one part of a running stack, the way an operator would bounce it.
restart_component() {
  case "$1" in
    tansu)
      stop_pidfile "$STATE_DIR/tansu.pid" KILL
      start_broker
      create_topics
      log "tansu restarted with an empty log; topics recreated (producers rebuild themselves and re-publish)"
      ;;
    postgres)
      stop_postgres "$STATE_DIR/pgdata"
      start_postgres "$STATE_DIR/pgdata" "$PG_PORT" "$STATE_DIR/logs/postgres.log"
      log "postgres restarted"
      ;;
    *)
      [ -n "${PORTS[$1]:-}" ] || { echo "unknown component $1: tansu, postgres or one of ${SERVICES[*]}" >&2; exit 64; }
      stop_pidfile "$STATE_DIR/$1.pid"
      start_service "$1"
      wait_ready "$1"
      log "$1 restarted"
      ;;
  esac
}

cmd_start() {
  bash "$root/scripts/install-deps.sh"
  mkdir -p "$STATE_DIR/logs"
  chmod 755 "$STATE_DIR"
  if [ ! -f "$STATE_DIR/pgdata/postmaster.pid" ]; then
    log "starting PostgreSQL on 127.0.0.1:$PG_PORT"
    start_postgres "$STATE_DIR/pgdata" "$PG_PORT" "$STATE_DIR/logs/postgres.log"
  fi
  bootstrap_database
  start_broker
  # Services that are still running reconnect to a restarted broker at once; they never create topics
  # themselves (allow.auto.create.topics=false), so the catalogue's topics are made before anything else.
  [ -x "$root/.build/$BUILD_CONFIGURATION/platformctl" ] && create_topics
  start_mail_sink
  if [ "${STACK_SKIP_BUILD:-0}" = 1 ]; then
    log "using the services already built ($BUILD_CONFIGURATION; STACK_SKIP_BUILD=1)"
  else
    log "building the services ($BUILD_CONFIGURATION)"
    (cd "$root" && swift build -c "$BUILD_CONFIGURATION")
  fi
  create_topics
  dev_keys
  journey_profile
  write_service_addresses
  for service in "${SERVICES[@]}"; do start_service "$service"; done
  for service in "${SERVICES[@]}"; do wait_ready "$service"; done
  cmd_status
}

# write_service_addresses: where scripts/journeys.sh finds the services (with the journey profile only).
write_service_addresses() {
  [ -d "$STATE_DIR/journeys" ] || return 0
  local service
  for service in "${SERVICES[@]}"; do echo "$service=http://127.0.0.1:${PORTS[$service]}"; done >"$STATE_DIR/journeys/services.env"
}

cmd_stop() {
  for service in "${SERVICES[@]}"; do stop_pidfile "$STATE_DIR/$service.pid"; done
  stop_pidfile "$STATE_DIR/tansu.pid" KILL  # Tansu ignores SIGTERM
  stop_pidfile "$STATE_DIR/mail.pid"
  stop_postgres "$STATE_DIR/pgdata"
  log "stack stopped (data kept in $STATE_DIR; delete it for a clean start)"
}

cmd_status() {
  printf '%-22s %-8s %-28s %-6s %s\n' COMPONENT STATE ADDRESS READY METRICS
  local state
  state=$([ -f "$STATE_DIR/pgdata/postmaster.pid" ] && echo running || echo stopped)
  printf '%-22s %-8s %-28s\n' postgres "$state" "127.0.0.1:$PG_PORT (db platform)"
  state=$([ -f "$STATE_DIR/tansu.pid" ] && kill -0 "$(cat "$STATE_DIR/tansu.pid")" 2>/dev/null && echo running || echo stopped)
  printf '%-22s %-8s %-28s\n' tansu "$state" "127.0.0.1:$KAFKA_PORT"
  state=$([ -f "$STATE_DIR/mail.pid" ] && kill -0 "$(cat "$STATE_DIR/mail.pid")" 2>/dev/null && echo running || echo stopped)
  printf '%-22s %-8s %-28s\n' mail-sink "$state" "127.0.0.1:$MAIL_PORT ($STATE_DIR/mail/new)"
  [ -f "$STATE_DIR/journeys/settings.env" ] \
    && echo "journey profile on: providers point at scripts/journeys.sh's fakes (STACK_JOURNEYS=0 scripts/stack.sh restart drops it)"
  for service in "${SERVICES[@]}"; do
    local port=${PORTS[$service]} ready=no
    state=$([ -f "$STATE_DIR/$service.pid" ] && kill -0 "$(cat "$STATE_DIR/$service.pid")" 2>/dev/null && echo running || echo stopped)
    curl -fsS --connect-timeout 1 --max-time 2 "http://127.0.0.1:$port/ready" >/dev/null 2>&1 && ready=yes
    printf '%-22s %-8s %-28s %-6s %s\n' "$service" "$state" "http://127.0.0.1:$port" "$ready" "127.0.0.1:${METRICS_PORTS[$service]}"
  done
}

case "${1:-start}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  restart) if [ -n "${2:-}" ]; then restart_component "$2"; else cmd_stop; cmd_start; fi ;;
  status) cmd_status ;;
  logs) tail -n 50 -f "$STATE_DIR/logs/${2:?usage: stack.sh logs SERVICE}.log" ;;
  *) echo "usage: scripts/stack.sh [start|stop|restart [COMPONENT]|status|logs SERVICE]" >&2; exit 64 ;;
esac
