#!/usr/bin/env bash
# Soak run of the sample gateway (issue 31, item 7; not part of mvn verify): mixed traffic (non-stream and SSE, four
# keys, three routes) through the sample WAR on Open Liberty for 30 minutes while the provider simulator's accounts
# flap between healthy, 429, 503 and streams cut mid-way, with the records on PostgreSQL (baton.records.store=jdbc)
# and the cluster store on Redis (baton.cluster.store=redis). Redis and PostgreSQL are each stopped and restarted
# once during the run. Then: answers by status, wrong answers, records lost, the server's heap and threads.
#
#   benchmarks/e2e/soak.sh                  # 30 minutes
#   benchmarks/e2e/soak.sh --minutes 2      # a short check
#   benchmarks/e2e/soak.sh --help           # every flag
#
# It starts its own Redis (port 6390), PostgreSQL cluster (15/soak, port 5433), simulator (18290) and Liberty server
# (9280), and removes them at the end: the machine's Redis (6379) and PostgreSQL (5432) are never touched.
# Needs: redis-server, redis-cli, Debian's postgresql-common (pg_createcluster) and PostgreSQL 15, run as root (or a
# user who may run pg_createcluster); a Java 21+ JDK for the client. See docs/performance.md, "Soak run".
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"
ROOT=$(cd "$HERE/../.." && pwd)

MINUTES=30
CONCURRENCY=6
PAUSE_MS=100
FLAP_SECONDS=10
OUTAGE=30
SEED=31
PORT=9280
SIM_PORT=18290
REDIS_PORT=6390
PG_PORT=5433
PG_VERSION=15
PG_CLUSTER=soak
OFFLINE=
BUILD=1
OUT=

usage() {
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    cat <<EOF
Flags:
  --minutes M        minutes of traffic (default $MINUTES)
  --concurrency C    client threads, each sending one request at a time (default $CONCURRENCY)
  --pause-ms P       pause of each thread between its requests (default $PAUSE_MS)
  --flap-seconds F   every F seconds each account takes a new state (default $FLAP_SECONDS)
  --outage S         how long Redis and PostgreSQL each stay down (default $OUTAGE s)
  --seed N           seed of the flapping sequence (default $SEED)
  --port N           the Liberty server's HTTP port (default $PORT)
  --offline          pass -o to Maven
  --no-build         reuse the WAR and Liberty already built under war-sample/target
  --out DIR          where logs and results go (default benchmarks/e2e/results/soak-<time>)
Environment: BENCH_JAVA = a Java 21+ launcher for the client (default: Temurin 25, else java on PATH if 21+);
             M2_REPO = the Maven repository to find the PostgreSQL driver in (default ~/.m2/repository).
EOF
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --minutes) MINUTES=$2; shift ;;
        --concurrency) CONCURRENCY=$2; shift ;;
        --pause-ms) PAUSE_MS=$2; shift ;;
        --flap-seconds) FLAP_SECONDS=$2; shift ;;
        --outage) OUTAGE=$2; shift ;;
        --seed) SEED=$2; shift ;;
        --port) PORT=$2; shift ;;
        --offline) OFFLINE=-o ;;
        --no-build) BUILD= ;;
        --out) OUT=$2; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "unknown flag $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

OUT=${OUT:-$HERE/results/soak-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
PROPS=$OUT/server.properties
: > "$PROPS"
prop() { echo "$1=$2" >> "$PROPS"; }

for tool in redis-server redis-cli pg_createcluster pg_ctlcluster pg_dropcluster psql curl ss mvn; do
    command -v $tool >/dev/null || { echo "needs $tool on PATH" >&2; exit 1; }
done
[[ -n "$JAVA" && -x "$(dirname "$JAVA")/javac" ]] || { echo "needs a Java 21+ JDK: set BENCH_JAVA" >&2; exit 1; }

RUN_SECONDS=$((MINUTES * 60))
REDIS_AT=$((RUN_SECONDS * 3 / 10))
PG_AT=$((RUN_SECONDS * 6 / 10))
if ((OUTAGE >= PG_AT - REDIS_AT)); then
    echo "--outage $OUTAGE is too long for a run of $MINUTES min: Redis must be back before PostgreSQL stops (at most $((PG_AT - REDIS_AT - 1)) s)" >&2
    exit 2
fi
for p in $PORT $SIM_PORT $REDIS_PORT $PG_PORT; do
    if port_busy "$p"; then echo "port $p is in use: is another soak run going on?" >&2; exit 1; fi
done
if pg_lsclusters -h | awk -v v=$PG_VERSION -v c=$PG_CLUSTER '$1 == v && $2 == c' | grep -q .; then
    echo "a PostgreSQL cluster $PG_VERSION/$PG_CLUSTER exists already (pg_dropcluster $PG_VERSION $PG_CLUSTER --stop)" >&2
    exit 1
fi

# ---- clean up whatever we started, however we leave ----------------------------------------------------------

PIDS=()
SERVER_PID=
REDIS_ARGS=(--port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes
    --pidfile "$OUT/redis.pid" --logfile "$OUT/redis.log" --dir "$OUT")
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if [[ -z "$SERVER_PID" ]]; then SERVER_PID=$(listener_pid "$PORT" || true); fi
    if [[ -n "$SERVER_PID" ]] && ours "$SERVER_PID"; then
        log "stopping Liberty (pid $SERVER_PID)"
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        for _ in $(seq 60); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.5; done
        kill -KILL "$SERVER_PID" 2>/dev/null || true
    fi
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do kill -TERM "${PIDS[i]}" 2>/dev/null || true; done
    if [[ -f $OUT/redis.pid ]]; then kill -TERM "$(cat "$OUT/redis.pid")" 2>/dev/null || true; fi
    if [[ -n "${PG_CREATED:-}" ]]; then pg_dropcluster "$PG_VERSION" "$PG_CLUSTER" --stop >/dev/null 2>&1 || true; fi
    wait 2>/dev/null || true
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- build ----------------------------------------------------------------------------------------------------

log "output in $OUT"
"$(dirname "$JAVA")/javac" -d "$OUT/classes" "$HERE/Soak.java"
"$JAVA" -cp "$OUT/classes" Soak check 2>&1 | tee -a "$OUT/run.log"
WLP=$ROOT/war-sample/target/liberty/wlp
if [[ -n "$BUILD" ]]; then
    log "building the sample WAR and Liberty (mvn, tests skipped)"
    (cd "$ROOT" && mvn -B -q $OFFLINE -pl war-sample -am -DskipTests -Dsample.port-check.skip=true package liberty:create) \
        > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
fi
SAMPLE_WAR=$ROOT/war-sample/target/baton-sample.war
SIM_JAR=$(ls "$ROOT"/testkit/target/baton-testkit-*-standalone.jar 2>/dev/null | head -1 || true)
PG_DRIVER=$(ls "${M2_REPO:-$HOME/.m2/repository}"/org/postgresql/postgresql/*/postgresql-*.jar 2>/dev/null \
    | grep -v sources | sort -V | tail -1 || true)
[[ -x $WLP/bin/server && -f $SAMPLE_WAR ]] || { echo "no Liberty or WAR under war-sample/target: run without --no-build" >&2; exit 1; }
[[ -n "$SIM_JAR" ]] || { echo "no testkit/target/baton-testkit-*-standalone.jar: run without --no-build" >&2; exit 1; }
[[ -n "$PG_DRIVER" ]] || { echo "no PostgreSQL driver under ${M2_REPO:-$HOME/.m2/repository}/org/postgresql (set M2_REPO)" >&2; exit 1; }

# ---- Redis, PostgreSQL, the simulator: our own, on ports of their own -----------------------------------------

redis_up() { redis-server "${REDIS_ARGS[@]}" >/dev/null; wait_for 20 "Redis" redis-cli -p "$REDIS_PORT" ping; }
redis_down() { redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true; }
redis_up
log "Redis on $REDIS_PORT"

PG_CREATED=1
pg_createcluster "$PG_VERSION" "$PG_CLUSTER" -p "$PG_PORT" -- --auth=trust > "$OUT/pg-create.log" 2>&1
pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" start
PSQL=(psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -v ON_ERROR_STOP=1 -Atq)
wait_for 30 "PostgreSQL" "${PSQL[@]}" -c 'select 1'
"${PSQL[@]}" -c 'create database soak'
log "PostgreSQL $PG_VERSION/$PG_CLUSTER on $PG_PORT (trust auth, database soak)"

"$JAVA" -jar "$SIM_JAR" --port "$SIM_PORT" --accounts primary,standby,claude,third > "$OUT/simulator.log" 2>&1 &
PIDS+=($!)
wait_for 30 "the simulator" curl -sf -X POST "http://127.0.0.1:$SIM_PORT/__sim/reset"
for account in primary standby claude third; do
    words=$(printf "$account %.0s" 1 2 3 4 5 6)
    curl -sf -X PUT "http://127.0.0.1:$SIM_PORT/__sim/accounts/$account/default" \
        -d "{\"type\":\"reply\",\"text\":\"${words% }\",\"event_interval_ms\":15}" >/dev/null
done
log "simulator on $SIM_PORT (accounts primary, standby, claude, third)"

# ---- Liberty: the sample WAR in a server of our own, with JDBC records and the Redis store -------------------

export WLP_USER_DIR=$OUT/wlp-usr
SERVER_DIR=$WLP_USER_DIR/servers/soak
"$WLP/bin/server" create soak > /dev/null
mkdir -p "$SERVER_DIR/apps" "$SERVER_DIR/jdbc"
cp "$SAMPLE_WAR" "$SERVER_DIR/apps/baton-sample.war"
cp "$PG_DRIVER" "$SERVER_DIR/jdbc/"
# The sample's server.xml, plus JDBC and the DataSource the record store writes to (java:comp/DefaultDataSource).
sed 's#</server>##' "$ROOT/war-sample/src/main/liberty/config/server.xml" > "$SERVER_DIR/server.xml"
cat >> "$SERVER_DIR/server.xml" <<EOF
    <featureManager>
        <feature>jdbc-4.3</feature>
    </featureManager>
    <library id="postgresql">
        <fileset dir="\${server.config.dir}/jdbc" includes="postgresql-*.jar"/>
    </library>
    <dataSource id="DefaultDataSource">
        <jdbcDriver libraryRef="postgresql"/>
        <properties.postgresql serverName="127.0.0.1" portNumber="$PG_PORT" databaseName="soak" user="postgres"
                               password="trust-auth-ignores-it"/>
    </dataSource>
</server>
EOF
echo "http.port=$PORT" > "$SERVER_DIR/bootstrap.properties"
SIM=http://127.0.0.1:$SIM_PORT
# Baton's configuration on top of the sample's (system properties beat microprofile-config.properties). Keys and
# routes must match Soak.java's KEYS and CHAINS.
cat > "$SERVER_DIR/jvm.options" <<EOF
-Dsample.simulator.enabled=false
-Dbaton.connections.primary.base-url=$SIM/primary/v1
-Dbaton.connections.standby.base-url=$SIM/standby/v1
-Dbaton.connections.claude.base-url=$SIM/claude/v1
-Dbaton.connections.third.provider=openai
-Dbaton.connections.third.base-url=$SIM/third/v1
-Dbaton.connections.third.models=gpt-5.4-mini
-Dbaton.routes.soak.targets=standby/gpt-5.4-mini, third/gpt-5.4-mini
-Dbaton.routes.soak.deadline=20s
-Dbaton.routes.soak.attempt-timeout=5s
-Dbaton.routes.soak.first-token-timeout=3s
-Dbaton.endpoint.allowed-models=demo,mixed,soak
-Dbaton.endpoint.keys.soak-k1.sha256=$(sha soak-key-1)
-Dbaton.endpoint.keys.soak-k1.budget=100000/1d
-Dbaton.endpoint.keys.soak-k2.sha256=$(sha soak-key-2)
-Dbaton.endpoint.keys.soak-k2.allowed-models=demo,soak
-Dbaton.endpoint.keys.soak-k3.sha256=$(sha soak-key-3)
-Dbaton.endpoint.keys.soak-k3.allowed-models=mixed
-Dbaton.endpoint.keys.soak-k3.budget=100000/1d
-Dbaton.models.gpt-5.4-mini.price.input=0.25
-Dbaton.models.gpt-5.4-mini.price.output=2
-Dbaton.models.claude-haiku-5-5.price.input=1
-Dbaton.models.claude-haiku-5-5.price.output=5
-Dbaton.records.store=jdbc
-Dbaton.cluster.store=redis
-Dbaton.cluster.redis.url=redis://127.0.0.1:$REDIS_PORT
-Dbaton.cluster.node=soak-1
-Dotel.sdk.disabled=false
-Dotel.metrics.exporter=logging
-Dotel.traces.exporter=none
-Dotel.logs.exporter=none
-Dotel.metric.export.interval=10000
EOF
log "starting Liberty on $PORT (server soak in $WLP_USER_DIR)"
"$WLP/bin/server" run soak > "$OUT/server.log" 2>&1 &
PIDS+=($!)
BASE=http://127.0.0.1:$PORT/baton
# The start-up check's requests have records too: their ids go to warmup-ids.txt, which the report leaves out.
answers() {
    rm -f "$OUT/warmup-headers.txt"
    curl -s -o /dev/null -D "$OUT/warmup-headers.txt" -H 'Authorization: Bearer baton-demo-key' \
        -H 'Content-Type: application/json' -d '{"model":"demo","messages":[{"role":"user","content":"up?"}]}' \
        "$BASE/v1/chat/completions" || true
    tr -d '\r' < "$OUT/warmup-headers.txt" | awk 'tolower($1) == "x-request-id:" { print $2 }' >> "$OUT/warmup-ids.txt"
    head -1 "$OUT/warmup-headers.txt" | grep -q ' 200'
}
wait_for 240 "Liberty to answer through Baton (see $OUT/server.log)" answers
SERVER_PID=$(listener_pid "$PORT")
SERVER_JDK=$(dirname "$(readlink -f "/proc/$SERVER_PID/exe")")
JCMD=$SERVER_JDK/jcmd
log "Liberty is up, pid $SERVER_PID, $("$SERVER_JDK/java" -version 2>&1 | head -1)"

heap_used_mb() { "$JCMD" "$SERVER_PID" GC.heap_info 2>/dev/null | grep -o 'used [0-9]*K' | head -1 | tr -dc 0-9 | awk '{ printf "%.0f", $1 / 1024 }'; }
live_heap_mb() { "$JCMD" "$SERVER_PID" GC.run >/dev/null 2>&1; heap_used_mb; }
java_threads() { "$JCMD" "$SERVER_PID" Thread.print 2>/dev/null | grep -c '^"' || true; }
os_threads() { awk '$1 == "Threads:" { print $2 }' "/proc/$SERVER_PID/status"; }
measure() { # measure start|end
    prop "heap.$1" "$(heap_used_mb)"
    prop "java_threads.$1" "$(java_threads)"
    prop "os_threads.$1" "$(os_threads)"
    prop "live.$1" "$(live_heap_mb)"
    log "server at $1: $(grep "\.$1=" "$PROPS" | tr '\n' ' ')"
}
measure start
prop minutes "$MINUTES"
prop machine "$(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo), $(uname -sr)"
prop server_java "$("$SERVER_JDK/java" -version 2>&1 | head -1)"

# ---- the run: traffic, flapping, and one outage each of Redis and PostgreSQL -----------------------------------

echo -e "t_s\theap_used_mb\tos_threads\trss_mb" > "$OUT/samples.tsv"
(
    start=$SECONDS
    while kill -0 "$SERVER_PID" 2>/dev/null; do
        printf '%s\t%s\t%s\t%s\n' $((SECONDS - start)) "$(heap_used_mb)" "$(os_threads)" \
            "$(awk '$1 == "VmRSS:" { printf "%.0f", $2 / 1024 }' "/proc/$SERVER_PID/status")" >> "$OUT/samples.tsv"
        sleep 30
    done
) &
PIDS+=($!)


(
    sleep "$REDIS_AT"
    redis_down
    log "Redis stopped (t=${REDIS_AT}s)"
    sleep "$OUTAGE"
    redis_up
    log "Redis restarted, empty (t=$((REDIS_AT + OUTAGE))s)"
    sleep $((PG_AT - REDIS_AT - OUTAGE))
    pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" stop -m fast
    log "PostgreSQL stopped (t=${PG_AT}s)"
    sleep "$OUTAGE"
    pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" start
    log "PostgreSQL restarted (t=$((PG_AT + OUTAGE))s)"
) &
PIDS+=($!); chaos=$!
prop "event.Redis stopped (shutdown nosave), restarted empty" "at ${REDIS_AT} s, down ${OUTAGE} s"
prop "event.PostgreSQL stopped (pg_ctlcluster stop -m fast), restarted" "at ${PG_AT} s, down ${OUTAGE} s"

log "traffic for $MINUTES min: $CONCURRENCY threads, ${PAUSE_MS} ms pause, accounts flap every ${FLAP_SECONDS} s"
"$JAVA" -cp "$OUT/classes" Soak traffic --base "$BASE" --sim "$SIM" --seconds "$RUN_SECONDS" --out "$OUT" \
    --concurrency "$CONCURRENCY" --pause-ms "$PAUSE_MS" --flap-seconds "$FLAP_SECONDS" --seed "$SEED" \
    2> >(tee -a "$OUT/run.log" >&2)
wait "$chaos" 2>/dev/null || true

# ---- after: let the writer drain, then compare ------------------------------------------------------------------

db_count() { "${PSQL[@]}" -d soak -c "select count(*) from baton_requests where kind = 'request'" 2>/dev/null || echo -1; }
log "waiting for the record writer to drain"
last=-2; stable=0
for _ in $(seq 60); do
    n=$(db_count)
    if [[ $n == "$last" ]]; then stable=$((stable + 1)); else stable=0; fi
    ((stable >= 5)) && break
    last=$n; sleep 2
done
sleep 12 # one more metric export (otel.metric.export.interval=10000)
measure end

# The loss counter: baton.records{baton.state=written|dropped|failed}, from the last export of the logging exporter.
# messages.log rolls over at 20 MB (the exporter's lines are long): the newest export is in the current file.
MESSAGES=$SERVER_DIR/logs/messages.log
records_line=$(grep -h 'name=baton.records,' "$MESSAGES" 2>/dev/null | tail -1 || true)
for state in written dropped failed; do
    v=$(grep -o "baton.state=\"$state\"}, value=[0-9]*" <<<"$records_line" | grep -o '[0-9]*$' || true)
    prop "records.$state" "${v:-0}"
done
[[ -n "$records_line" ]] || log "no baton.records metric in the server's log: the loss counter reads 0 (check $MESSAGES)"
prop "log.records_not_written" "$(cat "$SERVER_DIR"/logs/messages*.log | grep -c -E 'Baton (dropped|could not write) [0-9]+ request records' || true)"

"${PSQL[@]}" -d soak -F '|' -c "select id, coalesce(served_connection, '-'), http_status from baton_requests where kind = 'request'" \
    > "$OUT/db.tsv"
prop "records.db" "$(wc -l < "$OUT/db.tsv")"

"$JAVA" -cp "$OUT/classes" Soak report "$OUT" | tee "$OUT/report.txt"
{
    echo
    echo "Run: $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$ROOT" rev-parse --short HEAD), $(grep '^machine=' "$PROPS" | cut -d= -f2-)"
    echo "Server: Open Liberty, $(grep '^server_java=' "$PROPS" | cut -d= -f2-); heap and threads every 30 s in samples.tsv"
} | tee -a "$OUT/report.md"
log "report in $OUT/report.md"
