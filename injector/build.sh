#!/bin/sh
# Assembles the injector's smali source into a dex with Debian's smali (apt-get install libsmali-java).
# Usage: injector/build.sh [OUT.dex]   (default: injector/injector.dex, the committed copy)
# Reproducible: one thread, a fixed API level (15 -> dex format 035, readable by every Android since
# 5.0), and no timestamps in a dex; tests/injector.rs checks the committed dex against a fresh build.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/injector.dex}
if command -v smali >/dev/null 2>&1; then
  smali=smali
elif [ -f /usr/share/java/smali.jar ]; then
  smali="java -jar /usr/share/java/smali.jar"
else
  echo "smali is missing: run 'apt-get install -y libsmali-java'" >&2
  exit 1
fi
$smali assemble --api 15 --jobs 1 --output "$out" "$here/src"
