#!/usr/bin/env bash
# Installs the PostgreSQL server binaries that the state-store tests start as a throwaway server
# (/usr/lib/postgresql/<version>/bin/initdb and pg_ctl, plus the 'postgres' OS user they run as under root).
# Idempotent: does nothing when they are already there. Debian/Ubuntu only.
set -euo pipefail

have_server() {
    compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null && compgen -G '/usr/lib/postgresql/*/bin/pg_ctl' >/dev/null
}

if have_server && id -u postgres >/dev/null 2>&1; then
    exit 0
fi

source "$(dirname "$0")/apt-install.bash"
# The package may also set up a system-wide cluster on port 5432; the tests never use it.
apt_install postgresql.sh "the PostgreSQL server (initdb, pg_ctl)" postgresql

if ! have_server; then
    echo "postgresql.sh: the postgresql package did not provide /usr/lib/postgresql/*/bin/initdb" >&2
    exit 1
fi
