# Sourced by the installers in this folder (it does not end in .sh, so './lakesync test' does not run it).
# apt_install SCRIPT WHAT PACKAGE...: installs Debian packages with apt-get, through sudo when not root, or
# fails naming WHAT when there is no apt-get.
apt_install() {
    local script="$1" what="$2"
    shift 2
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "$script: no apt-get here; install $what by hand." >&2
        exit 1
    fi
    local sudo_if_needed=()
    if [ "$(id -u)" -ne 0 ]; then
        sudo_if_needed=(sudo)
    fi
    echo "$script: installing $what for the tests"
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_if_needed[@]}" apt-get update -q
    "${sudo_if_needed[@]}" apt-get install -y -q --no-install-recommends "$@"
}
