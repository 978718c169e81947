#!/bin/sh
# Assembles the image's root filesystem (everything but the application, which jib layers itself) into OUT:
#   /opt/java            a JRE made by jlink from JDK (its jmods), only the modules the broker uses
#   /lib, /lib64, /usr/lib  the shared libraries that JRE, /bin/sh, /bin/bash and /bin/sleep load, copied
#                        from this machine at the same paths (glibc's loader, libc, libm, libz, libstdc++...)
#   /bin/sh (dash), /bin/bash, /bin/sleep   Testcontainers' start command and script need them
#   /etc, /etc/kafka/docker/run   users (appuser, uid 1000), hosts, the start script (from src/image/rootfs)
#   /tmp, /var/lib/kafka/data     empty dirs (their modes are set by jib's permissions in pom.xml)
# The image builds FROM scratch: no registry is needed. Linux with glibc only (the copied binaries are the
# host's). Usage: assemble-rootfs.sh OUT JDK_HOME MODULES (comma-separated).
set -eu

OUT=$1
JDK=$2
MODULES=$3
HERE=$(cd "$(dirname "$0")" && pwd)

fail() {
    echo "assemble-rootfs: $*" >&2
    exit 1
}

for tool in ldd cp mkdir find; do
    command -v "$tool" >/dev/null 2>&1 || fail "'$tool' is needed to assemble the image's root filesystem"
done
[ -x "$JDK/bin/jlink" ] || fail "no jlink in $JDK/bin: build with a full JDK (not a JRE)"
[ -d "$JDK/jmods" ] || fail "$JDK has no jmods/ (on Debian/Ubuntu: apt-get install openjdk-17-jdk-headless, which ships them)"
SH=$(command -v dash || true)
[ -n "$SH" ] || fail "dash is needed for the image's /bin/sh (apt-get install dash)"
BASH_BIN=$(command -v bash || true)
[ -n "$BASH_BIN" ] || fail "bash is needed for the image's /bin/bash (Testcontainers' start script runs #!/bin/bash)"
SLEEP=$(command -v sleep || true)
[ -n "$SLEEP" ] || fail "sleep is needed for the image's /bin/sleep"

# Up to date (made by this script from these files and the same modules): keep it, jlink is slow.
if [ -f "$OUT.stamp" ] && [ "$(cat "$OUT.stamp")" = "$MODULES" ] \
        && [ -z "$(find "$0" "$HERE/rootfs" -newer "$OUT.stamp" | head -n 1)" ]; then
    echo "assemble-rootfs: $OUT is up to date"
    exit 0
fi
rm -rf "$OUT" "$OUT.stamp"
mkdir -p "$OUT"

# The JRE: no debug symbols, headers or man pages, compressed resources, the JDK's default CDS archive
# (the JVM maps its classes instead of loading them: faster start).
"$JDK/bin/jlink" --module-path "$JDK/jmods" --add-modules "$MODULES" \
    --strip-debug --no-header-files --no-man-pages --compress=2 --generate-cds-archive \
    --output "$OUT/opt/java" || fail "jlink failed"
# The archive for heaps over 32 GB (no compressed oops) is as big as the other: such a JVM starts without CDS.
rm -f "$OUT/opt/java/lib/server/classes_nocoops.jsa"
# Debian's libjvm.so keeps its symbol table (~3.5 MB); strip it when binutils are here (optional).
if command -v strip >/dev/null 2>&1; then
    chmod u+w "$OUT/opt/java/lib/server/libjvm.so"
    strip --strip-unneeded "$OUT/opt/java/lib/server/libjvm.so"
fi

mkdir -p "$OUT/bin"
cp "$SH" "$OUT/bin/sh"
cp "$BASH_BIN" "$OUT/bin/bash"
cp "$SLEEP" "$OUT/bin/sleep"

# Every shared library those binaries and the JRE's own libraries load, at the path the loader finds it
# (ldd's answer), real files rather than links: jib layers file contents.
LIBS=$(mktemp)
trap 'rm -f "$LIBS"' EXIT
for binary in "$OUT/bin/sh" "$OUT/bin/bash" "$OUT/bin/sleep" "$OUT/opt/java/bin/java" \
        $(find "$OUT/opt/java/lib" -name '*.so'); do
    ldd "$binary" 2>/dev/null | awk '
        $2 == "=>" && $3 ~ /^\// { print $3 }
        $1 ~ /^\// { print $1 }' >> "$LIBS" || true
done
for lib in $(sort -u "$LIBS"); do
    case "$lib" in
        "$OUT"/*) continue ;; # the JRE's own, found through its rpath
    esac
    [ -f "$lib" ] || fail "ldd names $lib, which does not exist"
    mkdir -p "$OUT$(dirname "$lib")"
    cp -L "$lib" "$OUT$lib"
done
grep -q 'ld-linux' "$LIBS" || fail "no dynamic loader found by ldd (not a glibc system?)"
# The native libraries inside the application's jars (Netty's epoll and tcnative, zstd-jni, snappy) were linked
# against glibc's older split libraries, which glibc 2.34+ keeps as small stubs beside libc: copy those too.
LIBC=$(grep '/libc\.so\.6$' "$LIBS" | head -n 1)
for stub in libdl.so.2 libpthread.so.0 librt.so.1 libresolv.so.2 libutil.so.1; do
    if [ -f "$(dirname "$LIBC")/$stub" ]; then
        cp -L "$(dirname "$LIBC")/$stub" "$OUT$(dirname "$LIBC")/$stub"
    fi
done

# The loader also looks in the multiarch dirs under /usr; on merged-/usr systems ldd says /lib/...
cp -R "$HERE/rootfs/." "$OUT/"
mkdir -p "$OUT/tmp" "$OUT/var/lib/kafka/data" "$OUT/home/appuser" "$OUT/root"
echo "$MODULES" > "$OUT.stamp"
echo "assemble-rootfs: $(du -sh "$OUT" | cut -f1) in $OUT (JRE modules: $MODULES)"
