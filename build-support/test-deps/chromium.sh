#!/usr/bin/env bash
# Installs the headless browser the console's browser tests drive: Debian's chromium and its matching
# chromedriver (/usr/bin/chromium, /usr/bin/chromedriver). Idempotent: does nothing when both are there.
# Debian/Ubuntu only; nothing is downloaded from anywhere but the distribution's package archive.
set -euo pipefail

if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    exit 0
fi

source "$(dirname "$0")/apt-install.bash"
apt_install chromium.sh "chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver)" chromium chromium-driver

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    echo "chromium.sh: the packages did not provide /usr/bin/chromium and /usr/bin/chromedriver" >&2
    exit 1
fi
