# Shared by run.sh, soak.sh and burst.sh, which source it first; log() writes to $OUT, their results folder.

log() { printf '%s  %s\n' "$(date -u +%H:%M:%S)" "$*" | tee -a "$OUT/run.log" >&2; }

java_major() { "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'; }

# The JDK the benchmark's own programs run on: BENCH_JAVA, else Temurin 25 or the java on PATH if it is 21 or newer.
JAVA=${BENCH_JAVA:-}
if [[ -z "$JAVA" ]]; then
    for candidate in /usr/lib/jvm/temurin-25-jdk-amd64/bin/java "$(command -v java || true)"; do
        if [[ -x "$candidate" && $(java_major "$candidate") -ge 21 ]]; then JAVA=$candidate; break; fi
    done
fi

port_busy() { [[ -n $(ss -Hltn "sport = :$1") ]]; }
listener_pid() { ss -Hltnp "sport = :$1" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2; }
wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...
    local deadline=$((SECONDS + $1)) what=$2; shift 2
    until "$@" >/dev/null 2>&1; do
        if ((SECONDS > deadline)); then log "gave up waiting for $what"; return 1; fi
        sleep 0.5
    done
}

# A process this script started (a descendant of it): only those are stopped, whoever else listens on our ports.
ours() {
    local pid=$1
    while [[ -n "$pid" && "$pid" -gt 1 ]]; do
        [[ "$pid" == "$$" ]] && return 0
        pid=$(awk '$1 == "PPid:" { print $2 }' "/proc/$pid/status" 2>/dev/null)
    done
    return 1
}

sha() { printf %s "$1" | sha256sum | cut -d' ' -f1; }
