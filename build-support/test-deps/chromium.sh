#!/usr/bin/env bash
# Installs the headless browser the console's browser tests drive: Debian's chromium and its matching
# chromedriver (/usr/bin/chromium, /usr/bin/chromedriver). Idempotent: does nothing when both are there.
# Debian/Ubuntu only; nothing is downloaded from anywhere but the distribution's package archive.
set -euo pipefail

if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "chromium.sh: no apt-get here; install chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver) by hand." >&2
    exit 1
fi

sudo_if_needed=()
if [ "$(id -u)" -ne 0 ]; then
    sudo_if_needed=(sudo)
fi

echo "chromium.sh: installing chromium and chromium-driver for the console's browser tests"
export DEBIAN_FRONTEND=noninteractive
"${sudo_if_needed[@]}" apt-get update -q
"${sudo_if_needed[@]}" apt-get install -y -q --no-install-recommends chromium chromium-driver

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    echo "chromium.sh: the packages did not provide /usr/bin/chromium and /usr/bin/chromedriver" >&2
    exit 1
fi
