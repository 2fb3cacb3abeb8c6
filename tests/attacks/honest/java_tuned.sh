# honest: java_tuned
# layers: userns,seccomp_notify (the JVM starts ~20 threads under --nproc 24: without a user namespace or the listener the count is the uid's, shared with every other run of it)
# flags: --nproc 32 --no-network --clean-env --cpu 5 --mem 256
# timeout: 20
# variant: - | --nproc 32 --clean-env --cpu 5 --mem 256 | network-allowed
# evidence: the same submission with the JVM options a judge passes under 256 MB (-Xmx128m -XX:+UseSerialGC -XX:CompressedClassSpaceSize=64m, for javac via -J; --nproc 32: javac and java peak at 14 threads, 12 is too few); prints java-ok
# ok-if: [ -s "$CWD/Main.class" ] && out_has "java-ok 99999 4999999"
set -eu
cat >Main.java <<'SRC'
import java.util.*;
import java.util.stream.*;
public class Main {
  public static void main(String[] a) throws Exception {
    List<Integer> l = IntStream.range(0, 100000).boxed().collect(Collectors.toList());
    Collections.shuffle(l, new Random(1));
    Collections.sort(l);
    Thread[] ts = new Thread[4];
    long[] r = new long[4];
    for (int i = 0; i < 4; i++) {
      final int k = i;
      ts[i] = new Thread(() -> { long s = 0; for (int j = 0; j < 1000000; j++) s += j % (k + 2); r[k] = s; });
      ts[i].start();
    }
    for (Thread t : ts) t.join();
    System.out.println("java-ok " + l.get(99999) + " " + (r[0] + r[1] + r[2] + r[3]));
  }
}
SRC
O="-Xmx128m -XX:+UseSerialGC -XX:CompressedClassSpaceSize=64m"
javac $(printf -- "-J%s " $O) Main.java
java $O Main
