#!/usr/bin/env bash
# Installs the non-Java clients the compat tests drive: kcat (librdkafka) and confluent-kafka-python
# (python3-confluent-kafka, on the same librdkafka, for /usr/bin/python3) from Debian's packages, and KafkaJS 2.2.4 (pinned in js/package.json and js/package-lock.json) with `npm ci` into js/node_modules,
# no global installs. Idempotent, and fast when everything is already there. The tests run it once per JVM
# (see ExternalClients.java); CI (root, Debian, clean machine) must pass it.
#
#   setup.sh [log-file]     (default: compat-tests/target/clients-setup.log; output also goes to stdout)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
target="$here/../target"
log="${1:-$target/clients-setup.log}"
mkdir -p "$(dirname "$log")" "$target"
exec > >(tee -a "$log") 2>&1

say() { echo "[setup $(date +%H:%M:%S)] $*"; }
trap 'say "FAILED (exit $?) at line $LINENO: $BASH_COMMAND"' ERR

# Two JVMs running the tests at once must not both run apt-get or npm ci.
if command -v flock >/dev/null 2>&1; then
    exec 9>"$target/clients-setup.lock"
    flock -w 600 9
fi

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo -n "$@"
    else
        say "not root (and no password-less sudo) to run: $*"
        return 1
    fi
}

# Registries sometimes drop a connection: one more try after a pause.
twice() {
    "$@" && return 0
    say "retrying in 5 s: $*"
    sleep 5
    "$@"
}

apt_updated=0
apt_install() {
    if ! command -v apt-get >/dev/null 2>&1; then
        say "no apt-get here to install $*"
        return 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    # A fresh machine may have no (or stale) package lists: refresh them once, and only when installing.
    if [ "$apt_updated" -eq 0 ]; then
        say "apt-get update"
        twice as_root apt-get update -qq
        apt_updated=1
    fi
    say "apt-get install $*"
    twice as_root apt-get install -y -qq --no-install-recommends "$@"
}

install_kcat() {
    if ! command -v kcat >/dev/null 2>&1; then
        apt_install kcat
    fi
    say "kcat: $(command -v kcat) ($(kcat -V 2>&1 | grep -o 'Version [^(]*' | head -n 1))"
}

# Debian's module is installed for Debian's interpreter: the tests run /usr/bin/python3, not whatever python3
# comes first on the PATH (pyenv and the like).
install_confluent_kafka_python() {
    if ! /usr/bin/python3 -c 'import confluent_kafka' >/dev/null 2>&1; then
        apt_install python3-confluent-kafka
    fi
    say "confluent-kafka-python: $(/usr/bin/python3 -c 'import confluent_kafka as c; print(c.version()[0], "on librdkafka", c.libversion()[0])')"
}

install_kafkajs() {
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
        apt_install nodejs npm
    fi
    local js="$here/js"
    local installed="$js/node_modules/kafkajs/package.json"
    # npm ci writes node_modules/.package-lock.json; newer than the lock file means nothing changed since.
    if [ -f "$installed" ] && [ "$js/node_modules/.package-lock.json" -nt "$js/package-lock.json" ] \
        && grep -q '"version": "2.2.4"' "$installed"; then
        say "kafkajs 2.2.4: present in $js/node_modules"
        return 0
    fi
    say "npm ci in $js (node $(node --version), npm $(npm --version))"
    (cd "$js" && twice npm ci --no-audit --no-fund --loglevel=error)
    grep -q '"version": "2.2.4"' "$installed"
    say "kafkajs 2.2.4: installed"
}

install_kcat
install_confluent_kafka_python
install_kafkajs
say "done"
