#!/usr/bin/env bash
# Installs the non-Java clients the compat tests drive: kcat (librdkafka) and confluent-kafka-python
# (python3-confluent-kafka, on the same librdkafka, for /usr/bin/python3) from Debian's packages, and KafkaJS 2.2.4 (pinned in js/package.json and js/package-lock.json) with `npm ci` into js/node_modules,
# no global installs. The old clients of issue 9 also come from Debian: kafka-python 2.0.2 (python3-kafka) and
# Sarama 1.22 (golang-github-shopify-sarama-dev, with Debian's Go); go/sarama-client.go is built against it in
# GOPATH mode into target/sarama-client, on every run (Go's build cache in target/ makes a rebuild quick).
# Idempotent, and fast when everything is already there. The tests run it once per JVM
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

# kafka-python on Python 3.12+ fails to import its vendored six (kafka.vendor.six.moves); python/kafka_python_client.py
# works around that itself with Debian's python3-six (only suggested by python3-kafka: installed there too).
install_kafka_python() {
    if ! dpkg -s python3-kafka >/dev/null 2>&1; then
        apt_install python3-kafka
    fi
    if /usr/bin/python3 -c 'import sys; sys.exit(sys.version_info < (3, 12))' \
        && ! /usr/bin/python3 -c 'import six.moves' >/dev/null 2>&1; then
        apt_install python3-six
    fi
    local version
    version="$(/usr/bin/python3 "$here/python/kafka_python_client.py" '{"mode": "version"}')"
    say "kafka-python: $version"
    [ "$version" = "2.0.2" ] || { say "expected kafka-python 2.0.2 (Debian's python3-kafka), found $version"; return 1; }
}

# Sarama 1.22 from Debian's source package for GOPATH builds (/usr/share/gocode), with its dependencies; no
# modules, nothing fetched by Go. A project-local GOPATH entry first, so nothing is ever written under /usr.
# Sarama 1.22 imports DataDog/zstd, a cgo package: gcc and libc6-dev (only recommended by golang-go) too.
sarama_src=/usr/share/gocode/src/github.com/Shopify/sarama
install_sarama() {
    if ! command -v go >/dev/null 2>&1 || ! command -v gcc >/dev/null 2>&1 || [ ! -f "$sarama_src/sarama.go" ] \
        || [ ! -f /usr/include/stdlib.h ]; then
        apt_install golang-go golang-github-shopify-sarama-dev gcc libc6-dev
    fi
    local version
    version="$(dpkg-query -W -f '${Version}' golang-github-shopify-sarama-dev)"
    case "$version" in
        1.22.*) ;;
        *) say "expected Sarama 1.22 (golang-github-shopify-sarama-dev), found $version"; return 1 ;;
    esac
    say "go build sarama-client (Sarama $version, $(go version))"
    mkdir -p "$target/gopath" "$target/go-cache"
    (cd "$here/go" && GO111MODULE=off GOFLAGS= GOPATH="$target/gopath:/usr/share/gocode" GOCACHE="$target/go-cache" \
        CGO_CFLAGS="-O2 -Wno-deprecated-declarations" go build -o "$target/sarama-client" .)
    say "sarama-client: $target/sarama-client"
}

install_kcat
install_confluent_kafka_python
install_kafkajs
install_kafka_python
install_sarama
say "done"
