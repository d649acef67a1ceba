#!/usr/bin/env bash
# Budget burst (issue 31): how far one named key gets past its budget. A key with a budget (0.1 a day), a priced model
# (about 0.023 a request), then: sequential requests until the first 402; 100 concurrent non-stream requests (fast
# provider); 100 concurrent with 1 s provider latency; 100 concurrent streams. Each phase has a key of its own, so
# each starts with a fresh budget. Only the HTTP surface is used: 402 budget_exceeded, usage.cost, the records.
#
#   benchmarks/e2e/burst.sh                          # the sample on Open Liberty (its own server, port 9380)
#   benchmarks/e2e/burst.sh --server wildfly         # the sample on WildFly (port offset 1300: 9380)
#   benchmarks/e2e/burst.sh --nodes 2                # two servers (9380, 9390) on one Redis store; requests alternate
#   benchmarks/e2e/burst.sh --url http://host:9080/baton [--url http://host2:9080/baton] --sim http://host:18390
#                                                    # a server already running, configured with --print-config
#   benchmarks/e2e/burst.sh --help                   # every flag
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"
ROOT=$(cd "$HERE/../.." && pwd)

SERVER=liberty
NODES=1
URLS=()
SIM_URL=
REQUESTS=100
BUDGET=0.1
RUN_ID=$(date +%H%M%S)
PORT=9380
SIM_PORT=
REDIS_PORT=
OFFLINE=
BUILD=1
OUT=
PRINT_CONFIG=
BYTES_PER_TOKEN=

usage() {
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    cat <<EOF
Flags:
  --server S        liberty (default) or wildfly, when the tool deploys the sample itself
  --nodes N         1 (default) or 2: two servers sharing one Redis store (baton.cluster.store=redis)
  --url URL         a running server's Baton path (e.g. http://127.0.0.1:9080/baton); twice for two nodes. It must
                    run with the configuration --print-config prints (same --run-id and --sim)
  --sim URL         with --url: the provider simulator that server's connection "burst" calls
  --run-id ID       names the keys (burst-ID-seq, ...; letters, digits, - and _); default the time of day, $RUN_ID
                    now. Against a running server, each run needs keys it has not spent yet: a new run id, and the
                    server restarted with the configuration printed for it
  --print-config    print the Baton configuration (system properties) for --url and exit
  --requests N      requests of each concurrent phase (default $REQUESTS)
  --budget B        the keys' budget per day (default $BUDGET)
  --bytes-per-token N  baton.budgets.input-bytes-per-token on the server (default: the server's, 1)
  --port N          first node's HTTP port when the tool deploys (default $PORT; the second node gets N+10, since
                    WildFly's port offset moves ports that lie 1 apart, e.g. 4712 and 4713; the simulator N+9010,
                    Redis N-2989)
  --offline         pass -o to Maven
  --no-build        reuse what war-sample/target holds
  --out DIR         where logs and results go (default benchmarks/e2e/results/burst-<time>-<server>)
Environment: BENCH_JAVA = a Java 21+ launcher for the client; M2_REPO as for Maven (default ~/.m2/repository).
EOF
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --server) SERVER=$2; shift ;;
        --nodes) NODES=$2; shift ;;
        --url) URLS+=("${2%/}"); shift ;;
        --sim) SIM_URL=${2%/}; shift ;;
        --run-id) RUN_ID=$2; shift ;;
        --print-config) PRINT_CONFIG=1 ;;
        --requests) REQUESTS=$2; shift ;;
        --budget) BUDGET=$2; shift ;;
        --port) PORT=$2; shift ;;
        --bytes-per-token) BYTES_PER_TOKEN=$2; shift ;;
        --offline) OFFLINE=-o ;;
        --no-build) BUILD= ;;
        --out) OUT=$2; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "unknown flag $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
case "$SERVER" in liberty|wildfly) ;; *) echo "--server must be liberty or wildfly" >&2; exit 2 ;; esac
# The simulator and Redis ports follow the server's, so that runs on other --port values never meet.
SIM_PORT=$((PORT + 9010))
REDIS_PORT=$((PORT - 2989))
case "$NODES" in 1|2) ;; *) echo "--nodes must be 1 or 2" >&2; exit 2 ;; esac

# Baton's configuration on top of the sample's, as system properties (they beat microprofile-config.properties):
# connection "burst" on the simulator, route "burst", a price of 23 per million tokens in and out (a request of
# about 1,000 prompt tokens costs about 0.023), and one key per phase with the budget.
baton_config() { # baton_config SIM_URL NODE_NAME [REDIS_URL]
    cat <<EOF
-Dsample.simulator.enabled=false
-Dbaton.connections.burst.provider=openai
-Dbaton.connections.burst.base-url=$1/burst/v1
-Dbaton.connections.burst.models=burst-model
-Dbaton.routes.burst.targets=burst/burst-model
-Dbaton.routes.burst.deadline=30s
-Dbaton.routes.burst.attempt-timeout=20s
-Dbaton.routes.burst.first-token-timeout=10s
-Dbaton.models.burst-model.price.input=23
-Dbaton.models.burst-model.price.output=23
-Dbaton.endpoint.allowed-models=demo,mixed,gpt-5.4-mini,burst
-Dbaton.records.capacity=10000
-Dbaton.cluster.node=$2
EOF
    # The run id is in the keys' names too: spend is counted by name, and with JDBC records it survives a restart.
    for phase in seq fast slow streams; do
        echo "-Dbaton.endpoint.keys.burst-$RUN_ID-$phase.sha256=$(sha "secret-burst-$RUN_ID-$phase")"
        echo "-Dbaton.endpoint.keys.burst-$RUN_ID-$phase.budget=$BUDGET/1d"
        echo "-Dbaton.endpoint.keys.burst-$RUN_ID-$phase.allowed-models=burst"
    done
    if [[ -n "$BYTES_PER_TOKEN" ]]; then
        echo "-Dbaton.budgets.input-bytes-per-token=$BYTES_PER_TOKEN"
    fi
    if [[ -n "${3:-}" ]]; then
        echo "-Dbaton.cluster.store=redis"
        echo "-Dbaton.cluster.redis.url=$3"
        echo "-Dbaton.cluster.redis.key-prefix=burst-$RUN_ID:"
    fi
}
if [[ -n "$PRINT_CONFIG" ]]; then
    baton_config "${SIM_URL:-http://127.0.0.1:$SIM_PORT}" node-1
    exit 0
fi

OUT=${OUT:-$HERE/results/burst-$(date +%Y%m%d-%H%M%S)-$SERVER}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

[[ -n "$JAVA" && -x "$(dirname "$JAVA")/javac" ]] || { echo "needs a Java 21+ JDK: set BENCH_JAVA" >&2; exit 1; }
"$(dirname "$JAVA")/javac" -d "$OUT/classes" "$HERE/Burst.java"


PIDS=()
SERVER_PORTS=()
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    for p in "${SERVER_PORTS[@]}"; do
        local pid; pid=$(listener_pid "$p" || true)
        if [[ -n "$pid" ]] && ours "$pid"; then
            log "stopping the server on $p (pid $pid)"
            kill -TERM "$pid" 2>/dev/null || true
            for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
            kill -KILL "$pid" 2>/dev/null || true
        fi
    done
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do kill -TERM "${PIDS[i]}" 2>/dev/null || true; done
    if [[ -f $OUT/redis.pid ]]; then kill -TERM "$(cat "$OUT/redis.pid")" 2>/dev/null || true; fi
    wait 2>/dev/null || true
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- a running server, or the sample deployed here -----------------------------------------------------------

if ((${#URLS[@]} > 0)); then
    [[ -n "$SIM_URL" ]] || { echo "--url needs --sim (the simulator the server's connection burst calls)" >&2; exit 2; }
    DESCRIPTION="running server(s) ${URLS[*]}"
else
    SIM_URL=http://127.0.0.1:$SIM_PORT
    ports=($PORT $SIM_PORT)
    if ((NODES == 2)); then ports+=($((PORT + 10)) $REDIS_PORT); fi
    for p in "${ports[@]}"; do
        if port_busy "$p"; then echo "port $p is in use: is another burst run going on?" >&2; exit 1; fi
    done
    if [[ -n "$BUILD" ]]; then
        log "building the sample WAR for $SERVER (mvn, tests skipped)"
        if [[ $SERVER == liberty ]]; then
            (cd "$ROOT" && mvn -B -q $OFFLINE -pl war-sample -am -DskipTests -Dsample.port-check.skip=true \
                package liberty:create) > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
        else
            (cd "$ROOT" && mvn -B -q $OFFLINE -Pwildfly -pl war-sample -am -DskipTests -Dsample.port-check.skip=true \
                package) > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
        fi
    fi
    SAMPLE_WAR=$ROOT/war-sample/target/baton-sample.war
    SIM_JAR=$(ls "$ROOT"/testkit/target/baton-testkit-*-standalone.jar 2>/dev/null | head -1 || true)
    [[ -f $SAMPLE_WAR && -n "$SIM_JAR" ]] || { echo "no sample WAR or testkit jar under target/: run without --no-build" >&2; exit 1; }

    "$JAVA" -jar "$SIM_JAR" --port "$SIM_PORT" --accounts burst > "$OUT/simulator.log" 2>&1 &
    PIDS+=($!)
    wait_for 30 "the simulator" curl -sf -X POST "$SIM_URL/__sim/reset"
    REDIS_URL=
    if ((NODES == 2)); then
        redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
            --pidfile "$OUT/redis.pid" --logfile "$OUT/redis.log" --dir "$OUT" >/dev/null
        wait_for 20 "Redis" redis-cli -p "$REDIS_PORT" ping
        REDIS_URL=redis://127.0.0.1:$REDIS_PORT
        log "Redis on $REDIS_PORT, shared by both nodes"
    fi

    for node in $(seq "$NODES"); do
        port=$((PORT + 10 * (node - 1)))
        SERVER_PORTS+=($port)
        baton_config "$SIM_URL" "node-$node" "$REDIS_URL" > "$OUT/node-$node.options"
        if [[ $SERVER == liberty ]]; then
            WLP=$ROOT/war-sample/target/liberty/wlp
            export WLP_USER_DIR=$OUT/wlp-usr
            dir=$WLP_USER_DIR/servers/burst-$node
            "$WLP/bin/server" create "burst-$node" > /dev/null
            mkdir -p "$dir/apps"
            cp "$SAMPLE_WAR" "$dir/apps/baton-sample.war"
            cp "$ROOT/war-sample/src/main/liberty/config/server.xml" "$dir/server.xml"
            echo "http.port=$port" > "$dir/bootstrap.properties"
            cp "$OUT/node-$node.options" "$dir/jvm.options"
            "$WLP/bin/server" run "burst-$node" > "$OUT/server-$node.log" 2>&1 &
            PIDS+=($!)
        else
            WILDFLY_HOME=$(ls -d "$ROOT"/war-sample/target/wildfly-*/ 2>/dev/null | head -1 || true)
            [[ -n "$WILDFLY_HOME" ]] || { echo "no WildFly under war-sample/target: run without --no-build" >&2; exit 1; }
            base=$OUT/wildfly-$node
            rm -rf "$base"; cp -r "$WILDFLY_HOME/standalone" "$base"
            rm -rf "$base"/deployments/* "$base"/data "$base"/tmp "$base"/log
            cp "$SAMPLE_WAR" "$base/deployments/baton-sample.war"
            # The HTTP port is 8080 + the offset; management and the rest move with it.
            mapfile -t props < "$OUT/node-$node.options"
            "$WILDFLY_HOME/bin/standalone.sh" -c standalone.xml -Djboss.server.base.dir="$base" \
                -Djboss.socket.binding.port-offset=$((port - 8080)) "${props[@]}" > "$OUT/server-$node.log" 2>&1 &
            PIDS+=($!)
        fi
        URLS+=("http://127.0.0.1:$port/baton")
    done
    answers() { curl -sf -o /dev/null -H 'Authorization: Bearer baton-demo-key' "$1/v1/models"; }
    for url in "${URLS[@]}"; do
        wait_for 300 "$url to answer (see $OUT/server-*.log)" answers "$url"
    done
    DESCRIPTION="the sample on $SERVER, $NODES node(s), deployed by burst.sh"
    if ((NODES == 2)); then DESCRIPTION="$DESCRIPTION, both on one Redis store"; fi
    log "up: ${URLS[*]}"
fi

log "burst: run id $RUN_ID, budget $BUDGET a day, $REQUESTS requests a concurrent phase"
"$JAVA" -cp "$OUT/classes" Burst --urls "$(IFS=,; echo "${URLS[*]}")" --sim "$SIM_URL" --run-id "$RUN_ID" \
    --budget "$BUDGET" --requests "$REQUESTS" --out "$OUT" 2> >(tee -a "$OUT/run.log" >&2) > /dev/null
{
    echo "## Budget burst, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$ROOT" rev-parse --short HEAD), $(nproc) cores"
    echo
    echo "Against $DESCRIPTION. Budget $BUDGET a day per key, a fresh key per phase."
    echo
    cat "$OUT/burst.md"
} | tee "$OUT/summary.md"
log "answers in $OUT/answers.tsv, summary in $OUT/summary.md"
