#!/usr/bin/env bash
# Builds libDeepLinkC and the Kotlin test of the C ABI (Tests/Kotlin/CABITest.kt, through JNA), and
# runs it. The test is compiled once and again only when its source changes (.build/kotlin/).
# Needs kotlin, a JDK and JNA (`make kotlin-deps` installs Debian's).
set -euo pipefail
cd "$(dirname "$0")/../.."
swift=${SWIFT:-swift}
jna=${JNA_JAR:-/usr/share/java/jna.jar}
$swift build --product DeepLinkC
library="$($swift build --show-bin-path)/libDeepLinkC.so"
mkdir -p .build/kotlin
jar=.build/kotlin/CABITest.jar
if [ ! -f "$jar" ] || [ Tests/Kotlin/CABITest.kt -nt "$jar" ]; then
    kotlinc Tests/Kotlin/CABITest.kt -classpath "$jna" -d "$jar" 2>&1 | grep -v '^warning: ' || true
    [ -f "$jar" ]
fi
java -cp "$jar:${KOTLIN_STDLIB_JAR:-/usr/share/java/kotlin-stdlib.jar}:$jna" CABITestKt "$library"
