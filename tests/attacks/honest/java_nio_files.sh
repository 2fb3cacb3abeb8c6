# honest: java_nio_files
# layers: userns,seccomp_notify (the JVM starts ~20 threads under --nproc 24: without a user namespace or the listener the count is the uid's, shared with every other run of it)
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256 --nproc 24
# variant: - | --no-fork --clean-env --cpu 5 --mem 256 --nproc 24 | network-allowed
# evidence: a Java submission reads its input with java.nio.file.Files.readAllLines and writes CWD/answer.txt with Files.write (JVM options sized for --mem 256, see java_run.sh; --nproc 24 for its 17 threads); the runner checks the answer file
# ok-if: { out_has "nio-ok 7" && grep -qx "lines 7" "$CWD/answer.txt"; } || { out_has "java-missing" && ! command -v javac; }
# The grader's javac step is the eval'd args: line (source after "exit 3").
# args: $(sed '1,/^exit 3$/d' "$file" >"$RUN/Main.java" && javac -d "$CWD" "$RUN/Main.java" >"$RUN/javac.log" 2>&1 && printf 'a\nb\nc\nd\ne\nf\ng\n' >"$CWD/input.txt")
[ -e Main.class ] || { echo java-missing; exit 0; }
exec java -Xmx128m -XX:+UseSerialGC -XX:CompressedClassSpaceSize=64m -XX:ReservedCodeCacheSize=32m -cp . Main
exit 3
import java.nio.file.*;
import java.util.*;

public class Main {
	public static void main(String[] args) throws Exception {
		List<String> in = Files.readAllLines(Path.of("input.txt"));
		Files.write(Path.of("answer.txt"), List.of("lines " + in.size()));
		System.out.println("nio-ok " + in.size());
	}
}
