# honest: java_run
# layers: userns,seccomp_notify (the JVM starts ~20 threads under --nproc 24: without a user namespace or the listener the count is the uid's, shared with every other run of it)
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# xfail: by design under the seed limits (--profile java sizes the heap and threads for the JVM: tests/profiles.py; the JVM does not start under the seed limits: its default heap is sized from host RAM and committed at start (InitialHeapSize 380 MB on a 24 GB host > RLIMIT_DATA 256 MB: "failed to map ... committing reserved memory"); and it needs 17+ threads (--nproc 10 and 16: pthread_create EAGAIN); verdict memory_limit in every case)
# variant: - | --no-fork --no-network --clean-env --cpu 5 --mem 256 --nproc 24 --env JAVA_TUNED=1 | tuned-jvm+nproc24
# setup: stdin
# evidence: a Java submission (compiled by the grader with javac, run with java Main) reads stdin with Scanner and a file with BufferedReader, sorts, fills a HashMap and joins 4 threads; prints java-ok with known values (java-missing accepted only when the runner has no javac either)
# ok-if: out_has "java-ok stdin 3 threads 4000000 sorted true map 1000 file Main.class" || { out_has "java-missing" && ! command -v javac; }
# The suite only compiles C, so the grader's javac step is the eval'd args: line
# (the source is the part of this file after "exit 3"; Main.class lands in CWD).
# JAVA_TUNED (variant only, set with --env): the JVM options a Java grader has to
# add to fit --mem 256 (small heap, class space and code cache; serial GC for
# fewer threads); the variant's --nproc 24 is what this JVM needs (17 measured).
# args: $(sed '1,/^exit 3$/d' "$file" >"$RUN/Main.java" && javac -d "$CWD" "$RUN/Main.java" >"$RUN/javac.log" 2>&1)
[ -e Main.class ] || { echo java-missing; exit 0; }
if [ -n "${JAVA_TUNED:-}" ]; then
	exec java -Xmx128m -XX:+UseSerialGC -XX:CompressedClassSpaceSize=64m -XX:ReservedCodeCacheSize=32m -cp . Main
fi
exec java -cp . Main
exit 3
import java.io.*;
import java.util.*;

public class Main {
	public static void main(String[] args) throws Exception {
		Scanner in = new Scanner(System.in);
		int lines = 0;
		while (in.hasNextLine()) {
			in.nextLine();
			lines++;
		}
		final long[] part = new long[4];
		Thread[] t = new Thread[4];
		for (int i = 0; i < 4; i++) {
			final int k = i;
			t[i] = new Thread(() -> { for (int j = 0; j < 1000000; j++) part[k]++; });
			t[i].start();
		}
		long s = 0;
		for (int i = 0; i < 4; i++) {
			t[i].join();
			s += part[i];
		}
		List<Integer> l = new ArrayList<>();
		Random r = new Random(7);
		for (int i = 0; i < 100000; i++)
			l.add(r.nextInt());
		Collections.sort(l);
		boolean ok = true;
		for (int i = 1; i < l.size(); i++)
			ok &= l.get(i - 1) <= l.get(i);
		Map<String, Integer> m = new HashMap<>();
		for (int i = 0; i < 100000; i++)
			m.merge("k" + (i % 1000), 1, Integer::sum);
		String f = new File("Main.class").exists() ? "Main.class" : "none";
		try (BufferedReader br = new BufferedReader(new FileReader("Main.class"))) {
			if (br.read() < 0)
				f = "empty";
		}
		System.out.println("java-ok stdin " + lines + " threads " + s + " sorted " + ok + " map " + m.size() + " file " + f);
	}
}
