#!/usr/bin/env bash
# Installs a JDK (17 or newer) if there is none: the build and every test need it. Idempotent.
set -euo pipefail

jdk_version() {
    command -v javac >/dev/null 2>&1 || { echo 0; return; }
    local version
    version="$(javac -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p')"
    echo "${version:-0}"
}

if [ "$(jdk_version)" -ge 17 ]; then
    exit 0
fi
command -v apt-get >/dev/null 2>&1 || { echo "00-java.sh: no JDK 17+ and no apt-get; install a JDK 17 or newer." >&2; exit 1; }
echo "00-java.sh: installing openjdk-17-jdk-headless" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q openjdk-17-jdk-headless
