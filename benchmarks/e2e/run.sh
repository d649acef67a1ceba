#!/usr/bin/env bash
# End-to-end benchmark of the sample gateway: what Baton adds to every call, measured against a fake OpenAI
# upstream that is much faster than the gateway. Direct (client -> fake upstream) and through Baton
# (client -> app server -> Baton -> fake upstream) runs are interleaved in every round, so the ratios compare
# numbers taken seconds apart on the same (possibly noisy) machine. See docs/performance.md.
#
#   benchmarks/e2e/run.sh                       # Open Liberty, 3 rounds, then the many-streams run
#   benchmarks/e2e/run.sh --quick               # 1 short round, no many-streams run: a smoke test
#   benchmarks/e2e/run.sh --server wildfly      # the same WAR on WildFly
#   benchmarks/e2e/run.sh --cases open-responses,closed-embeddings --streams 0   # some cases only
#   benchmarks/e2e/run.sh --help                # every flag
#
# Only one app server may run at a time: the sample binds 9080 (Liberty) or 8080/9990 (WildFly).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"
ROOT=$(cd "$HERE/../.." && pwd)

ROUNDS=3
DURATION=15          # seconds of each closed-loop (wrk) run
OPEN_SECONDS=20      # seconds of each open-loop run (plus 2 s not counted)
WARMUP=20            # seconds of gateway warm-up per case before round 1
SETTLE=24            # then at most this many 5 s stretches more, until the server's JIT is quiet
CONNECTIONS=64
JSON_RATE=200        # open-loop requests per second, non-stream
SSE_RATE=100         # open-loop requests per second, SSE
CHUNKS=20            # content events per SSE answer
STREAMS=10000        # many-streams run: streams held open at once (0: skip it)
STREAM_RAMP=500      # many-streams run: new streams per second
SERVER=liberty
UPSTREAM_PORT=8099
OFFLINE=
BUILD=1
STREAMS_SET=
OUT=
# A case is a loop (closed: wrk, throughput; open: LoadDriver at a fixed rate, latency) and a kind of request:
# json and sse (chat completions), responses (a Responses API stream) and embeddings. By default the Responses stream
# runs the open loop only (latency and time to its first output) and the embedding the closed loop only (throughput
# with a 20 KB answer). With their warm-up they add about 9 minutes to a default run, some 40% of it.
# --cases all adds the other two.
ALL_CASES=(closed-json closed-sse open-json open-sse closed-responses open-responses closed-embeddings open-embeddings)
CASES=(closed-json closed-sse open-json open-sse closed-embeddings open-responses)

usage() {
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    cat <<EOF
Flags:
  --rounds N          rounds of direct + Baton runs (default $ROUNDS)
  --duration S        seconds of each closed-loop wrk run (default $DURATION)
  --open-seconds S    seconds of each open-loop run (default $OPEN_SECONDS)
  --warmup S          seconds of gateway warm-up per kind of request (default $WARMUP; half that for the
                      Responses stream and the embedding)
  --settle N          then warm on in stretches of 5 s (7 s with the Responses stream and the embedding) until the
                      server's JIT compiles for less than 0.25 s in one, at most N stretches (default $SETTLE;
                      0 skips it)
  --connections N     wrk connections (default $CONNECTIONS)
  --rate R            open-loop non-stream requests/s (default $JSON_RATE)
  --sse-rate R        open-loop SSE requests/s (default $SSE_RATE)
  --chunks N          content events per SSE answer (default $CHUNKS)
  --cases LIST        the cases of each round, comma-separated, in this order, or all. A case is a loop (closed:
                      wrk, throughput; open: LoadDriver at --rate or --sse-rate, latency) and a kind of request
                      (json, sse: chat completions; responses: a Responses API stream; embeddings).
                      default: ${CASES[*]}
                      all:     ${ALL_CASES[*]}
  --streams N         many-streams run with N slow streams, 0 to skip (default $STREAMS)
  --stream-ramp R     streams opened per second (default $STREAM_RAMP)
  --server S          liberty (default) or wildfly
  --quick             1 round, 5 s runs, 5 s warm-up, no many-streams run (unless --streams is given)
  --profile           record the server with JFR (settings=profile) during each run through Baton, into jfr/,
                      and sum up where its CPU went in profile.md
  --async-profile     record the server with async-profiler (tools.profiler:async-profiler from Maven Central) during
                      each closed-loop run through Baton and through the Netty relay, into profile/, and put their
                      CPU samples per 1,000 requests side by side in profile.md. Unlike JFR it works on WildFly.
  --offline           pass -o to Maven
  --no-build          reuse the WAR and server already built under war-sample/target
  --war FILE          run this sample WAR instead of the one built (e.g. one built from an older commit, to
                      compare before and after on the same machine)
  --out DIR           where logs and results go (default benchmarks/e2e/results/<time>)
Environment: BENCH_JAVA = a Java 21+ launcher for the fake upstream and the load driver
             (default: /usr/lib/jvm/temurin-25-jdk-amd64/bin/java, else java on PATH if 21+).
             BENCH_JFR_SETTINGS = the JFR settings --profile records with (default: profile, which samples
             every 10 ms; a copy with a 1 ms period gives ten times the samples a run).
EOF
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds) ROUNDS=$2; shift ;;
        --duration) DURATION=$2; shift ;;
        --open-seconds) OPEN_SECONDS=$2; shift ;;
        --warmup) WARMUP=$2; shift ;;
        --settle) SETTLE=$2; shift ;;
        --connections) CONNECTIONS=$2; shift ;;
        --rate) JSON_RATE=$2; shift ;;
        --sse-rate) SSE_RATE=$2; shift ;;
        --chunks) CHUNKS=$2; shift ;;
        --cases) if [[ $2 == all ]]; then CASES=("${ALL_CASES[@]}"); else IFS=', ' read -r -a CASES <<<"$2"; fi
                 shift ;;
        --streams) STREAMS=$2; STREAMS_SET=1; shift ;;
        --stream-ramp) STREAM_RAMP=$2; shift ;;
        --server) SERVER=$2; shift ;;
        --quick) ROUNDS=1; DURATION=5; OPEN_SECONDS=5; WARMUP=5; SETTLE=3; QUICK=1 ;;
        --profile) PROFILE=1 ;;
        --async-profile) ASYNC_PROFILE=1 ;;
        --offline) OFFLINE=-o ;;
        --no-build) BUILD= ;;
        --war) WAR=$(readlink -f "$2"); shift ;;
        --out) OUT=$2; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "unknown flag $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
if [[ -n "${QUICK:-}" && -z "$STREAMS_SET" ]]; then STREAMS=0; fi
if [[ -n "${PROFILE:-}" && -n "${ASYNC_PROFILE:-}" ]]; then
    echo "--profile and --async-profile: choose one (two profilers at once measure each other)" >&2; exit 2
fi
KINDS=()   # the kinds of request the cases send, each once, in the cases' order
for c in "${CASES[@]}"; do
    [[ " ${ALL_CASES[*]} " == *" $c "* ]] || { echo "unknown case $c (cases: ${ALL_CASES[*]})" >&2; exit 2; }
    [[ " ${KINDS[*]} " == *" ${c#*-} "* ]] || KINDS+=("${c#*-}")
done
((${#CASES[@]})) || { echo "--cases names no case" >&2; exit 2; }
has_kind() { [[ " ${KINDS[*]} " == *" $1 "* ]]; }

case "$SERVER" in
    liberty) PORT=9080 ;;
    wildfly) PORT=8080 ;;
    *) echo "--server must be liberty or wildfly" >&2; exit 2 ;;
esac
OUT=${OUT:-$HERE/results/$(date +%Y%m%d-%H%M%S)-$SERVER}
mkdir -p "$OUT"
RESULTS=$OUT/results.txt
: > "$RESULTS"

# ---- what the benchmark needs ---------------------------------------------------------------------------------

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

missing=()
for tool in wrk unzip; do command -v $tool >/dev/null || missing+=($tool); done
if ((${#missing[@]})); then
    log "installing ${missing[*]} (Debian packages)"
    as_root apt-get update -qq && as_root apt-get install -y -qq "${missing[@]}" >/dev/null
fi
for tool in curl ss mvn; do
    command -v $tool >/dev/null || { echo "needs $tool on PATH" >&2; exit 1; }
done

[[ -n "$JAVA" && -x "$(dirname "$JAVA")/javac" ]] || {
    echo "needs a Java 21+ JDK for the fake upstream and the load driver: set BENCH_JAVA=/path/to/bin/java" >&2
    exit 1
}

# Many sockets are open at once in the many-streams run; take whatever the hard limit allows.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# ---- clean up whatever we started, however we leave ----------------------------------------------------------

PIDS=()          # background processes started here, stopped in reverse order
SERVER_PID=
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    # A server that never answered is still ours: the port was free before it started. Its launcher script is in PIDS,
    # but stopping the script leaves the server's JVM running (and holding an inherited lock, if one was taken).
    if [[ -z "$SERVER_PID" && -n "${SERVER_STARTED:-}" ]]; then SERVER_PID=$(listener_pid "$PORT" || true); fi
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        log "stopping the $SERVER server (pid $SERVER_PID)"
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        for _ in $(seq 60); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.5; done
        kill -KILL "$SERVER_PID" 2>/dev/null || true
    fi
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
        kill -TERM "${PIDS[i]}" 2>/dev/null || true
    done
    sleep 0.5
    for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM


for p in $PORT $UPSTREAM_PORT; do
    if port_busy "$p"; then echo "port $p is in use: is another server or benchmark running?" >&2; exit 1; fi
done

# ---- build --------------------------------------------------------------------------------------------------

log "output in $OUT"
"$(dirname "$JAVA")/javac" -d "$OUT/classes" "$HERE/FakeUpstream.java" "$HERE/Answers.java" "$HERE/LoadDriver.java" \
    "$HERE/ProfileSummary.java"
# async-profiler: a native agent in a Maven Central jar, loaded into the running server by jcmd.
if [[ -n "${ASYNC_PROFILE:-}" ]]; then
    case "$(uname -m)" in x86_64) ap_arch=linux-x64 ;; aarch64) ap_arch=linux-arm64 ;;
        *) echo "--async-profile: no async-profiler build for $(uname -m)" >&2; exit 1 ;; esac
    (cd "$ROOT" && mvn -B -q $OFFLINE dependency:copy -Dartifact=tools.profiler:async-profiler:4.1 \
        -DoutputDirectory="$OUT/async-profiler") >/dev/null
    unzip -q -o "$OUT"/async-profiler/async-profiler-4.1.jar "$ap_arch/*" -d "$OUT/async-profiler"
    ASYNC_PROFILER_LIB=$OUT/async-profiler/$ap_arch/libasyncProfiler.so
    mkdir -p "$OUT/profile"
fi
# The server's floor (Floor.java): a servlet answering from memory, deployed beside the sample as floor.war.
SERVLET_API=$(ls "${M2_REPO:-$HOME/.m2/repository}"/jakarta/servlet/jakarta.servlet-api/6.*/jakarta.servlet-api-6.*.jar \
    2>/dev/null | grep -v sources | head -1 || true)
if [[ -z "$SERVLET_API" ]]; then
    (cd "$ROOT" && mvn -B -q $OFFLINE dependency:get -Dartifact=jakarta.servlet:jakarta.servlet-api:6.0.0) >/dev/null
    SERVLET_API=$(ls "${M2_REPO:-$HOME/.m2/repository}"/jakarta/servlet/jakarta.servlet-api/6.0.0/jakarta.servlet-api-6.0.0.jar)
fi
mkdir -p "$OUT/floor/WEB-INF/classes"
"$(dirname "$JAVA")/javac" --release 17 -cp "$SERVLET_API" -d "$OUT/floor/WEB-INF/classes" "$HERE/Floor.java" \
    "$HERE/Answers.java"
"$(dirname "$JAVA")/jar" cf "$OUT/floor.war" -C "$OUT/floor" .
# The asynchronous relay (NettyRelay.java): the same upstream call on Netty, Baton's HTTP client, and nothing else,
# nettyrelay.war. It is built after the sample, from the Netty jars inside the sample's WAR, so both run the same Netty.
build_netty_relay() {
    local dir=$OUT/nettyrelay
    mkdir -p "$dir/WEB-INF/lib" "$dir/WEB-INF/classes"
    unzip -q -j -o "$1" 'WEB-INF/lib/netty-*' -d "$dir/WEB-INF/lib" \
        || { echo "no Netty jars in $1 to build the Netty relay from" >&2; exit 1; }
    "$(dirname "$JAVA")/javac" --release 17 -cp "$SERVLET_API:$dir/WEB-INF/lib/*" -d "$dir/WEB-INF/classes" \
        "$HERE/NettyRelay.java" "$HERE/RelayServlet.java"
    "$(dirname "$JAVA")/jar" cf "$OUT/nettyrelay.war" -C "$dir" .
}
J=("$JAVA" -cp "$OUT/classes")

WLP=$ROOT/war-sample/target/liberty/wlp
if [[ -n "$BUILD" ]]; then
    log "building the sample WAR for $SERVER (mvn, tests skipped)"
    if [[ $SERVER == liberty ]]; then
        (cd "$ROOT" && mvn -B -q $OFFLINE -pl war-sample -am -DskipTests package liberty:create liberty:deploy) \
            > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
    else
        (cd "$ROOT" && mvn -B -q $OFFLINE -Pwildfly -pl war-sample -am -DskipTests package) \
            > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
    fi
fi
WILDFLY_HOME=$(ls -d "$ROOT"/war-sample/target/wildfly-*/ 2>/dev/null | head -1 || true)
SAMPLE_WAR=${WAR:-$ROOT/war-sample/target/baton-sample.war}
build_netty_relay "$SAMPLE_WAR"
SIDES=(direct baton nettyrelay floor)

# ---- the fake upstream, alone ---------------------------------------------------------------------------------

UPSTREAM=http://127.0.0.1:$UPSTREAM_PORT
"${J[@]}" FakeUpstream "$UPSTREAM_PORT" > "$OUT/upstream.log" 2>&1 &
PIDS+=($!)
wait_for 30 "the fake upstream" curl -sf "$UPSTREAM/__stats"

JSON_BODY='{"model":"demo","messages":[{"role":"user","content":"Draft a one-line reply. chunks='$CHUNKS'"}]}'
SSE_BODY='{"model":"demo","stream":true,"messages":[{"role":"user","content":"Draft a one-line reply. chunks='$CHUNKS'"}]}'
RESPONSES_BODY='{"model":"gpt-5.4-mini","input":"Draft a one-line reply. chunks='$CHUNKS'","stream":true}'
EMBEDDINGS_BODY='{"model":"text-embedding-3-small","input":"Draft a one-line reply."}'
# Each side's /v1: the relay and Baton send a call to {base}/X on to the fake upstream's /primary/v1/X.
DIRECT_BASE=$UPSTREAM/primary/v1
BATON_BASE=http://127.0.0.1:$PORT/baton/v1
FLOOR_BASE=http://127.0.0.1:$PORT/floor/v1
NETTY_RELAY_BASE=http://127.0.0.1:$PORT/nettyrelay/v1
DIRECT_URL=$DIRECT_BASE/chat/completions
BATON_URL=$BATON_BASE/chat/completions
FLOOR_URL=$FLOOR_BASE/chat/completions
NETTY_RELAY_URL=$NETTY_RELAY_BASE/chat/completions
BATON_AUTH='Bearer baton-demo-key'

# Each kind of request: its path under /v1, its body, its open-loop rate and how it is named in the summary.
declare -A KIND_PATH=([json]=chat/completions [sse]=chat/completions [responses]=responses [embeddings]=embeddings)
declare -A KIND_BODY=([json]=$JSON_BODY [sse]=$SSE_BODY [responses]=$RESPONSES_BODY [embeddings]=$EMBEDDINGS_BODY)
declare -A KIND_RATE=([json]=$JSON_RATE [sse]=$SSE_RATE [responses]=$SSE_RATE [embeddings]=$JSON_RATE)
declare -A KIND_NAME=([json]=non-stream [sse]="SSE ($CHUNKS chunks)" [responses]="Responses SSE ($CHUNKS deltas)"
    [embeddings]="embeddings (1,536 floats)")
# driver_flags KIND: what LoadDriver checks a stream for, and what its time to first byte waits for, in FLAGS. A
# Responses stream's first output is its first text delta (Baton commits its answer there), and it ends with
# response.completed, no [DONE]. The bare type names match however a gateway spaces "event:" (and in data too).
driver_flags() {
    case "$1" in
        sse) FLAGS=(--stream) ;;
        responses) FLAGS=(--stream --first response.output_text.delta --done response.completed) ;;
        *) FLAGS=() ;;
    esac
}

# wrk_run URL AUTH BODY SECONDS -> prints the WRK line of chat.lua
wrk_run() {
    BENCH_AUTH=$2 BENCH_BODY=$3 wrk -t2 -c"$CONNECTIONS" -d"$4"s --timeout 10s -s "$HERE/chat.lua" "$1" \
        | tee -a "$OUT/wrk.log" | grep '^WRK' | cut -d' ' -f2-
}

log "fake upstream alone (no app server running), $CONNECTIONS connections, ${DURATION}s each"
# its JIT first, on every answer; a short warm-up understates it
declare -A ALONE_WARM=([json]=$(( WARMUP < 10 ? WARMUP : 10 )) [sse]=5 [responses]=3 [embeddings]=3)
for kind in "${KINDS[@]}"; do
    wrk_run "$DIRECT_BASE/${KIND_PATH[$kind]}" "" "${KIND_BODY[$kind]}" "${ALONE_WARM[$kind]}" >/dev/null
done
declare -A ALONE
for kind in "${KINDS[@]}"; do
    ALONE[$kind]=$(wrk_run "$DIRECT_BASE/${KIND_PATH[$kind]}" "" "${KIND_BODY[$kind]}" "$DURATION")
    echo "case=upstream-alone-$kind ${ALONE[$kind]}" >> "$RESULTS"
done
rps_of() { grep -o 'rps=[0-9.]*' <<<"$1" | cut -d= -f2; }
ALONE_TEXT=
for kind in "${KINDS[@]}"; do
    ALONE_TEXT+="${ALONE_TEXT:+, }$(rps_of "${ALONE[$kind]}") req/s ${KIND_NAME[$kind]}"
done
log "fake upstream alone: $ALONE_TEXT"

# ---- the app server with the sample pointed at the fake upstream ----------------------------------------------

# Both connections of route "demo" go to the fake upstream; the sample's own simulator stays off.
export BATON_CONNECTIONS_PRIMARY_BASE_URL=$UPSTREAM/primary/v1
export BATON_CONNECTIONS_STANDBY_BASE_URL=$UPSTREAM/standby/v1
export SAMPLE_SIMULATOR_ENABLED=false

log "starting $SERVER"
SERVER_STARTED=1
if [[ $SERVER == liberty ]]; then
    [[ -x $WLP/bin/server ]] || { echo "no Liberty under $WLP: run without --no-build" >&2; exit 1; }
    # The packaged WAR, not the loose application liberty:deploy leaves (an XML file pointing into the modules'
    # target/classes): a loose app is re-read from those folders, and when the server runs out of file handles
    # under load it takes the failed reads for changes and restarts the application.
    rm -f "$WLP/usr/servers/baton/apps/baton-sample.war.xml"
    cp "$SAMPLE_WAR" "$WLP/usr/servers/baton/apps/baton-sample.war"
    mkdir -p "$WLP/usr/servers/baton/dropins"
    cp "$OUT/floor.war" "$WLP/usr/servers/baton/dropins/floor.war"
    rm -f "$WLP"/usr/servers/baton/dropins/*relay.war
    cp "$OUT"/*relay.war "$WLP/usr/servers/baton/dropins/"
    "$WLP/bin/server" run baton > "$OUT/server.log" 2>&1 &
    PIDS+=($!)
else
    [[ -n "$WILDFLY_HOME" ]] || { echo "no WildFly under war-sample/target: run without --no-build" >&2; exit 1; }
    rm -f "$WILDFLY_HOME"/standalone/deployments/baton-sample.war*
    cp "$SAMPLE_WAR" "$WILDFLY_HOME/standalone/deployments/baton-sample.war"
    cp "$OUT/floor.war" "$WILDFLY_HOME/standalone/deployments/floor.war"
    rm -f "$WILDFLY_HOME"/standalone/deployments/*relay.war*
    cp "$OUT"/*relay.war "$WILDFLY_HOME/standalone/deployments/"
    "$WILDFLY_HOME/bin/standalone.sh" -c standalone.xml > "$OUT/server.log" 2>&1 &
    PIDS+=($!)
fi
baton_answers() {
    curl -sf -o /dev/null -H "Authorization: $BATON_AUTH" -H 'Content-Type: application/json' \
        -d "$JSON_BODY" "$BATON_URL"
}
wait_for 240 "$SERVER to answer through Baton (see $OUT/server.log)" baton_answers
wait_for 60 "the floor servlet to answer" curl -sf -o /dev/null -d "$JSON_BODY" "$FLOOR_URL"
wait_for 60 "the relay servlet to answer" curl -sf -o /dev/null -d "$JSON_BODY" "$NETTY_RELAY_URL"
SERVER_PID=$(listener_pid "$PORT")
SERVER_JDK=$(dirname "$(readlink -f "/proc/$SERVER_PID/exe")")
log "$SERVER is up, pid $SERVER_PID, $("$SERVER_JDK/java" -version 2>&1 | head -1)"
curl -s -i -H "Authorization: $BATON_AUTH" -H 'Content-Type: application/json' -d "$SSE_BODY" "$BATON_URL" \
    > "$OUT/sample-sse-answer.txt"
grep -q 'data: \[DONE\]' "$OUT/sample-sse-answer.txt" || { log "a stream through Baton did not end in [DONE]"; exit 1; }
if has_kind responses; then
    curl -s -i -H "Authorization: $BATON_AUTH" -H 'Content-Type: application/json' -d "$RESPONSES_BODY" \
        "$BATON_BASE/responses" > "$OUT/sample-responses-answer.txt"
    grep -q 'response\.completed' "$OUT/sample-responses-answer.txt" || {
        log "a Responses stream through Baton did not end in response.completed (see sample-responses-answer.txt;"
        log "  --cases without the responses cases measures the others)"; exit 1; }
fi
if has_kind embeddings; then
    curl -s -i -H "Authorization: $BATON_AUTH" -H 'Content-Type: application/json' -d "$EMBEDDINGS_BODY" \
        "$BATON_BASE/embeddings" > "$OUT/sample-embeddings-answer.txt"
    grep -q '"embedding":\[' "$OUT/sample-embeddings-answer.txt" || {
        log "an embeddings request through Baton got no embedding (see sample-embeddings-answer.txt;"
        log "  --cases without the embeddings cases measures the others)"; exit 1; }
fi

# Seconds of warm-up for each kind through Baton and through the relay, then in each settling stretch (0: none). The
# Responses stream and the embedding get less: the relay runs the same code whatever the path, and Baton shares most
# of its own with the chat cases.
HALF_WARMUP=$(( (WARMUP + 1) / 2 ))
declare -A WARM_BATON=([json]=$WARMUP [sse]=$WARMUP [responses]=$HALF_WARMUP [embeddings]=$HALF_WARMUP)
declare -A WARM_RELAY=([json]=10 [sse]=10 [responses]=5 [embeddings]=5)
declare -A SETTLE_BATON=([json]=3 [sse]=2 [responses]=1 [embeddings]=1)
declare -A SETTLE_RELAY=([json]=1 [sse]=1 [responses]=0 [embeddings]=0)
log "warming up the gateway, $CONNECTIONS connections, through Baton:" \
    "$(for k in "${KINDS[@]}"; do printf '%s %ss; ' "$k" "${WARM_BATON[$k]}"; done)then the floor and the relay"
for kind in "${KINDS[@]}"; do
    wrk_run "$BATON_BASE/${KIND_PATH[$kind]}" "$BATON_AUTH" "${KIND_BODY[$kind]}" "${WARM_BATON[$kind]}" >/dev/null
done
for kind in "${KINDS[@]}"; do wrk_run "$FLOOR_BASE/${KIND_PATH[$kind]}" "" "${KIND_BODY[$kind]}" 5 >/dev/null; done
for kind in "${KINDS[@]}"; do
    wrk_run "$NETTY_RELAY_BASE/${KIND_PATH[$kind]}" "" "${KIND_BODY[$kind]}" "${WARM_RELAY[$kind]}" >/dev/null
done

# The server's JIT goes on compiling long after a short warm-up (Open Liberty and Baton took about 40 s of compiler
# CPU on 2 cores), and a compiler thread holding one of the two cores disturbs the open-loop latencies most.
jit_seconds() { "$SERVER_JDK/jstat" -compiler "$SERVER_PID" 2>/dev/null | awk 'NR == 2 { print $4 }'; }
if [[ -x $SERVER_JDK/jstat && $SETTLE -gt 0 ]]; then
    jit_state="still compiling after $SETTLE more 5 s stretches of warm-up"
    for ((stretch = 1; stretch <= SETTLE; stretch++)); do
        jit_before=$(jit_seconds)
        for kind in "${KINDS[@]}"; do
            wrk_run "$BATON_BASE/${KIND_PATH[$kind]}" "$BATON_AUTH" "${KIND_BODY[$kind]}" "${SETTLE_BATON[$kind]}" \
                >/dev/null
        done
        for kind in "${KINDS[@]}"; do
            if ((SETTLE_RELAY[$kind] > 0)); then
                wrk_run "$NETTY_RELAY_BASE/${KIND_PATH[$kind]}" "" "${KIND_BODY[$kind]}" "${SETTLE_RELAY[$kind]}" \
                    >/dev/null
            fi
        done
        if awk -v a="$jit_before" -v b="$(jit_seconds)" 'BEGIN { exit !(b - a < 0.25) }'; then
            jit_state="quiet after $stretch more 5 s stretch(es) of warm-up"
            break
        fi
    done
    log "the server's JIT: $(jit_seconds) s of compiling so far, $jit_state"
    echo "jit_seconds=$(jit_seconds) $jit_state" >> "$RESULTS"
fi

# ---- rounds: every case direct and through Baton, back to back ----------------------------------------------

# The server's CPU time (user and system, in clock ticks) from /proc, and what a run spent of it per request: a
# measure of cost that other jobs on the machine disturb far less than throughput.
# With them, the times the server's threads were switched off a core (each a thread waking another or waiting): the
# hand-offs between threads a request costs. Counted per thread, so that threads ending during a run do not subtract
# theirs; switches.tsv keeps each run's by thread name.
server_counters() {
    awk '{ print $14, $15 }' "/proc/$SERVER_PID/stat"
    local snap; snap=$(mktemp -p "$OUT" switches.XXXXXX)
    thread_switches > "$snap"
    echo "$snap"
}
thread_switches() {
    awk 'FNR == 1 { if (tid != "") print tid "\t" name "\t" n; split(FILENAME, p, "/"); tid = p[5]; n = 0 }
        $1 == "Name:" { $1 = ""; name = substr($0, 2); gsub(/[0-9]+/, "#", name) } /ctxt_switches/ { n += $2 }
        END { if (tid != "") print tid "\t" name "\t" n }' /proc/"$SERVER_PID"/task/*/status 2>/dev/null
}
server_cpu_per_request() {
    local before=($1) after=($(server_counters)) hz requests
    hz=$(getconf CLK_TCK)
    requests=$(grep -o -E '(requests|ok)=[0-9]+' <<<"$2" | head -1 | cut -d= -f2)
    local switches; switches=$(awk -F'\t' -v n="${requests:-0}" -v run="$3" 'NR == FNR { was[$1] = $3; next }
        { d = $3 - was[$1]; total += d; by[$2] += d }
        END { for (k in by) if (by[k] > 0 && n > 0) printf "%s\t%s\t%.3f\n", run, k, by[k] / n >> "'"$OUT"'/switches.tsv"
              if (n > 0) printf "%.2f", total / n }' "${before[2]}" "${after[2]}")
    rm -f "${before[2]}" "${after[2]}"
    awk -v u=$((after[0] - before[0])) -v s=$((after[1] - before[1])) -v hz="$hz" -v n="${requests:-0}" -v c="$switches" \
        'BEGIN { if (n > 0) printf "server_cpu_us=%.1f server_sys_share=%.2f server_switches=%s",
        (u + s) * 1e6 / hz / n, (u + s) ? s / (u + s) : 0, c }'
}

# run_case ROUND CASE MODE (CASE: closed-KIND or open-KIND)
run_case() {
    local url auth line kind=${2#*-}
    case "$3" in
        direct) url=$DIRECT_BASE; auth= ;;
        floor) url=$FLOOR_BASE; auth= ;;
        nettyrelay) url=$NETTY_RELAY_BASE; auth= ;;
        *) url=$BATON_BASE; auth=$BATON_AUTH ;;
    esac
    url=$url/${KIND_PATH[$kind]}
    local counters_before; if [[ $3 != direct ]]; then counters_before=$(server_counters); fi
    if [[ -n "${PROFILE:-}" && $3 == baton ]]; then
        "$JCMD" "$SERVER_PID" JFR.start name=bench settings=${BENCH_JFR_SETTINGS:-profile} filename="$OUT/jfr/$1-$2.jfr" >/dev/null
    fi
    local profiled=; if [[ -n "${ASYNC_PROFILE:-}" && $2 == closed-* && ($3 == baton || $3 == nettyrelay) ]]; then
        profiled=$OUT/profile/$1-$2-$3.collapsed
        # ctimer: each thread's CPU time, sampled every millisecond; the inner quotes keep jcmd from splitting it
        "$JCMD" "$SERVER_PID" JVMTI.agent_load "$ASYNC_PROFILER_LIB" '"start,event=ctimer,interval=1ms"' >/dev/null
    fi
    driver_flags "$kind"
    case "$2" in
        closed-*) line=$(wrk_run "$url" "$auth" "${KIND_BODY[$kind]}" "$DURATION") ;;
        open-*) line=$("${J[@]}" LoadDriver open "$url" --rate "${KIND_RATE[$kind]}" --seconds "$OPEN_SECONDS" \
                        --auth "$auth" --body "${KIND_BODY[$kind]}" "${FLAGS[@]}" 2>>"$OUT/driver.log" \
                        | grep '^OPEN' | cut -d' ' -f2-) ;;
    esac
    if [[ -n "${PROFILE:-}" && $3 == baton ]]; then "$JCMD" "$SERVER_PID" JFR.stop name=bench >/dev/null; fi
    if [[ -n "$profiled" ]]; then
        "$JCMD" "$SERVER_PID" JVMTI.agent_load "$ASYNC_PROFILER_LIB" "\"stop,file=$profiled,collapsed\"" >/dev/null
        echo "$profiled=$(grep -o -E 'requests=[0-9]+' <<<"$line" | cut -d= -f2)" >> "$OUT/profile/requests"
    fi
    if [[ $3 != direct ]]; then line="$line $(server_cpu_per_request "$counters_before" "$line" "$1-$2-$3")"; fi
    echo "round=$1 case=$2 mode=$3 $line" >> "$RESULTS"
    log "  round $1 $2 $3: $line"
}

JCMD=$SERVER_JDK/jcmd
if [[ -n "${PROFILE:-}" ]]; then
    log "recording the server with JFR during the runs through Baton: $OUT/jfr/ (it slows the server a little)"
    mkdir -p "$OUT/jfr"
fi
for round in $(seq "$ROUNDS"); do
    log "round $round of $ROUNDS"
    # alternate which side goes first, so a slow drift of the machine does not favour one side
    order=("${SIDES[@]}")
    if ((round % 2 == 0)); then for ((i = 0; i < ${#SIDES[@]}; i++)); do order[i]=${SIDES[-1 - i]}; done; fi
    for c in "${CASES[@]}"; do
        for mode in "${order[@]}"; do run_case "$round" "$c" "$mode"; done
    done
done

if [[ -n "${PROFILE:-}" ]]; then
    "${J[@]}" ProfileSummary "$OUT"/jfr/*.jfr > "$OUT/profile.md"
    log "JFR recordings in jfr/, where the CPU went in profile.md (full stacks:"
    log "  jfr print --stack-depth 64 --events jdk.ExecutionSample $OUT/jfr/<round>-<case>.jfr)"
fi
if [[ -n "${ASYNC_PROFILE:-}" && -s "$OUT/profile/requests" ]]; then
    mapfile -t profiled_runs < "$OUT/profile/requests"
    "${J[@]}" ProfileSummary "${profiled_runs[@]}" > "$OUT/profile.md"
    log "async-profiler's collapsed stacks in profile/, CPU samples per 1,000 requests in profile.md"
fi

# ---- many slow streams through Baton: threads and heap of the server ------------------------------------------

heap_used_kb() { "$JCMD" "$SERVER_PID" GC.heap_info 2>/dev/null | grep -o 'used [0-9]*K' | head -1 | tr -dc 0-9; }
proc_field() { awk -v f="$1:" '$1 == f { print $2 }' "/proc/$SERVER_PID/status"; }
java_threads() { "$JCMD" "$SERVER_PID" Thread.print 2>/dev/null | grep -c '^"' || true; }
live_heap_kb() { "$JCMD" "$SERVER_PID" GC.run >/dev/null 2>&1; heap_used_kb; }

STREAM_SUMMARY=
if ((STREAMS > 0)); then
    # Each stream holds two sockets in the server (caller and upstream) and a little more (selectors, pipes, a
    # class or log file opened meanwhile); stay well inside its open-file limit: a server out of file handles
    # fails in ways that have nothing to do with Baton.
    # When two sockets a stream do not fit, the callers share HTTP/2 connections (h2c, $H2_STREAMS streams to one),
    # which leaves one socket a stream, the upstream call's.
    fd_limit=$(awk '/Max open files/ { print $4 }' "/proc/$SERVER_PID/limits")
    fd_now=$(ls "/proc/$SERVER_PID/fd" | wc -l)
    fd_free=$((fd_limit - fd_now - 1000))
    H2_STREAMS=100
    STREAM_FLAGS=()
    STREAM_PROTOCOL="HTTP/1.1, a connection a stream"
    if ((2 * STREAMS > fd_free)); then
        if ((STREAMS + STREAMS / H2_STREAMS + 1 <= fd_free)); then
            STREAM_FLAGS=(--http2 "$H2_STREAMS")
            STREAM_PROTOCOL="HTTP/2 (h2c), $H2_STREAMS streams a connection"
            log "the server may open $fd_limit files ($fd_now in use): $STREAMS streams on HTTP/1.1 need two each;" \
                "the callers use HTTP/2 (h2c), $H2_STREAMS streams a connection"
        else
            STREAMS=$((fd_free / 2))
            log "the server may open $fd_limit files ($fd_now in use): running $STREAMS streams, two files each"
        fi
    fi
    ramp_s=$(((STREAMS + STREAM_RAMP - 1) / STREAM_RAMP))
    hold=$((ramp_s + 20))   # each stream lasts this many seconds: all are open for the last 20 s of the ramp+hold
    body='{"model":"demo","stream":true,"messages":[{"role":"user","content":"A slow one. chunks='$((hold + 1))' interval_ms=1000"}]}'

    # The slow streams' path (one event per read, a flush each) is not the fast one the rounds warmed, so warm it too:
    # a first run of 3,000 slow streams after a start waited 108-650 ms for the first byte at p50, the next 6-66 ms.
    warm_streams=$((STREAMS < 1000 ? STREAMS : 1000))
    start_threads=$(proc_field Threads)
    log "many streams: warming their path with $warm_streams streams of 3 s ($STREAM_PROTOCOL)"
    "${J[@]}" LoadDriver streams "$BATON_URL" --count "$warm_streams" --ramp "$STREAM_RAMP" --auth "$BATON_AUTH" \
        "${STREAM_FLAGS[@]}" --body "${body/chunks=$((hold + 1))/chunks=3}" >> "$OUT/run.log" 2>/dev/null || true
    idle_threads=$(proc_field Threads); idle_java=$(java_threads); idle_live=$(live_heap_kb)
    idle_rss=$(proc_field VmRSS)
    log "many streams: $STREAMS SSE streams through Baton, $STREAM_RAMP new per second, each ${hold}s (one event/s)"
    log "  idle: $idle_threads threads ($idle_java Java), live heap $((idle_live / 1024)) MB, RSS $((idle_rss / 1024)) MB"

    echo -e "t_s\tthreads\theap_used_kb\trss_kb\tfds" > "$OUT/streams-samples.tsv"
    (
        start=$SECONDS
        while kill -0 "$SERVER_PID" 2>/dev/null; do
            printf '%s\t%s\t%s\t%s\t%s\n' $((SECONDS - start)) "$(proc_field Threads)" "$(heap_used_kb)" \
                "$(proc_field VmRSS)" "$(ls "/proc/$SERVER_PID/fd" | wc -l)" >> "$OUT/streams-samples.tsv"
            sleep 2
        done
    ) &
    PIDS+=($!); sampler=$!
    "${J[@]}" LoadDriver streams "$BATON_URL" --count "$STREAMS" --ramp "$STREAM_RAMP" --auth "$BATON_AUTH" \
        "${STREAM_FLAGS[@]}" --body "$body" > "$OUT/streams.txt" 2> "$OUT/streams-progress.log" &
    PIDS+=($!); driver=$!
    # In the middle of the plateau, when every stream should be open: Java threads and the live heap.
    sleep $((ramp_s + 10))
    peak_java=$(java_threads); peak_live=$(live_heap_kb)
    # What the live heap is made of (after the GC above), to see which buffers a stream holds.
    "$JCMD" "$SERVER_PID" GC.class_histogram 2>/dev/null | head -40 > "$OUT/plateau-histogram.txt" || true
    upstream_open=$(curl -s "$UPSTREAM/__stats")
    log "  plateau: $peak_java Java threads, live heap $((peak_live / 1024)) MB; fake upstream: $upstream_open"
    wait "$driver" || true
    kill "$sampler" 2>/dev/null || true
    cat "$OUT/streams.txt" | tee -a "$OUT/run.log"
    max_threads=$(awk 'NR > 1 && $2 > m { m = $2 } END { print m }' "$OUT/streams-samples.tsv")
    max_heap=$(awk 'NR > 1 && $3 > m { m = $3 } END { print m }' "$OUT/streams-samples.tsv")
    max_rss=$(awk 'NR > 1 && $4 > m { m = $4 } END { print m }' "$OUT/streams-samples.tsv")
    max_fds=$(awk 'NR > 1 && $5 > m { m = $5 } END { print m }' "$OUT/streams-samples.tsv")
    s=$(grep '^STREAMS' "$OUT/streams.txt" || echo "STREAMS (driver failed)")
    STREAM_SUMMARY=$(cat <<EOF
| many streams ($SERVER) | idle | with the streams open |
|---|---:|---:|
| streams (${STREAM_RAMP}/s ramp, ${hold}s each; callers on $STREAM_PROTOCOL) | — | $(sed 's/^STREAMS //' <<<"$s") |
| server threads (OS) | $idle_threads ($start_threads before the warm-up streams) | $max_threads (max) |
| server Java threads (jcmd Thread.print) | $idle_java | $peak_java (plateau) |
| live heap after GC.run | $((idle_live / 1024)) MB | $((peak_live / 1024)) MB (plateau), $(((peak_live - idle_live) / (STREAMS > 0 ? STREAMS : 1))) KB per stream |
| heap used (sampled, with garbage) | — | $((max_heap / 1024)) MB (max) |
| RSS | $((idle_rss / 1024)) MB | $((max_rss / 1024)) MB (max) |
| open files | $fd_now | $max_fds (max) |
EOF
)
fi

# ---- report -------------------------------------------------------------------------------------------------

{
    echo "## $SERVER, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $ROUNDS round(s)"
    echo
    echo "Fake upstream alone: $ALONE_TEXT, $CONNECTIONS connections."
    echo "Closed loop: wrk, $CONNECTIONS connections, ${DURATION}s. Open loop: $JSON_RATE req/s non-stream and embeddings, $SSE_RATE req/s SSE and Responses streams, ${OPEN_SECONDS}s, latency from the scheduled send time; a Responses stream's ttfb is to its first response.output_text.delta."
    echo "Cases: ${CASES[*]}."
    echo "Medians over rounds; Baton/direct per round in the last column."
    echo
    "${J[@]}" LoadDriver summarize "$RESULTS"
    if [[ -n "$STREAM_SUMMARY" ]]; then echo; echo "$STREAM_SUMMARY"; fi
} > "$OUT/summary.md"
echo
cat "$OUT/summary.md"
log "raw results: $RESULTS; logs: $OUT"
