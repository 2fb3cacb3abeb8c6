# honest: javac_sandboxed
# layers: userns,seccomp_notify (the JVM starts ~20 threads under --nproc 24: without a user namespace or the listener the count is the uid's, shared with every other run of it)
# flags: --no-network --clean-env --cpu 5 --mem 256 --nproc 24
# variant: - | --clean-env --cpu 5 --mem 256 --nproc 24 | network-allowed
# evidence: the grader's Java compile step run sandboxed (forking profile): javac writes Main.class into the working directory, then java runs it (JVM options sized for --mem 256 as in java_run.sh, --nproc 24 for the JVM's threads); the runner checks Main.class and the output
# ok-if: { [ -s "$CWD/Main.class" ] && out_has "javac-ok 42"; } || { out_has "java-missing" && ! command -v javac; }
command -v javac >/dev/null || { echo java-missing; exit 0; }
printf '%s\n' 'public class Main { public static void main(String[] a) { System.out.println("javac-ok " + 6 * 7); } }' >Main.java
J="-Xmx128m -XX:+UseSerialGC -XX:CompressedClassSpaceSize=64m -XX:ReservedCodeCacheSize=32m"
javac $(for o in $J; do printf ' -J%s' "$o"; done) -d . Main.java
# shellcheck disable=SC2086
exec java $J -cp . Main
