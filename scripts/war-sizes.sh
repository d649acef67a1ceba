#!/usr/bin/env bash
# Measures the WAR sizes the docs state (README, docs/deploying.md, docs/getting-started.md): the minimal WAR
# (example-app: Baton's BOM and baton-impl, nothing else) and the sample WAR (war-sample), each with what its
# WEB-INF/lib holds, largest first. Sizes in MB of 1,000,000 bytes, as the docs give them.
#
#   scripts/war-sizes.sh              builds both WARs (tests not compiled), then measures
#   scripts/war-sizes.sh --no-build   measures the WARs already in example-app/target and war-sample/target
#   MVN_ARGS="-o -Dmaven.repo.local=..." scripts/war-sizes.sh   extra Maven options for the build
#
# Re-run it after any change to a module's dependencies and copy the totals into the docs.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" != "--no-build" ]]; then
    # sample.port-check.skip: measuring needs no free port.
    # shellcheck disable=SC2086
    mvn -B -q ${MVN_ARGS:-} -pl example-app,war-sample -am -Dmaven.test.skip=true -Dsample.port-check.skip=true package
fi

mb() {
    awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1000000 }'
}

# jars under 1 MB in KB, so that the small ones do not all read 0.0
size_of() {
    awk -v b="$1" 'BEGIN { if (b >= 1000000) printf "%.1f MB", b / 1000000; else printf "%d KB", (b + 500) / 1000 }'
}

measure() {
    local title=$1 war=$2
    if [[ ! -f $war ]]; then
        echo "missing: $war (build it, or run without --no-build)" >&2
        exit 1
    fi
    local size libs
    size=$(stat -c %s "$war")
    libs=$(unzip -l "$war" | awk '$4 ~ /^WEB-INF\/lib\/.+\.jar$/ { total += $1 } END { print total + 0 }')
    echo "$title: $war"
    echo "  WAR $(mb "$size"); WEB-INF/lib $(mb "$libs") in $(unzip -l "$war" | grep -c 'WEB-INF/lib/.*\.jar$') jars"
    unzip -l "$war" | awk '$4 ~ /^WEB-INF\/lib\/.+\.jar$/ { sub("WEB-INF/lib/", "", $4); print $1, $4 }' \
        | sort -rn | while read -r bytes jar; do
            printf '  %9s  %s\n' "$(size_of "$bytes")" "$jar"
        done
    echo
}

measure "minimal WAR (example-app)" example-app/target/baton-example.war
measure "sample WAR (war-sample)" war-sample/target/baton-sample.war
