# honest: java_default
# layers: userns,seccomp_notify (the JVM starts ~20 threads under --nproc 24: without a user namespace or the listener the count is the uid's, shared with every other run of it)
# flags: --nproc 32 --no-network --clean-env --cpu 5 --mem 256
# timeout: 20
# xfail: issue 14 (the JVM does not start under --mem 256: with RLIMIT_AS at its 1 GB backstop, G1's reservations plus the 1 GB compressed class space leave no room for thread stacks: pthread_create EAGAIN, "Could not create G1ServiceThread", exit 1; same bare under prlimit --as=1G; RLIMIT_DATA 256 MB alone also fails: os::commit_memory ENOMEM, the default initial heap is 1/64 of RAM)
# evidence: a Java submission compiled and run the naive way (javac Main.java && java Main, default JVM options; --nproc 32: the default JVM starts 19 threads here); prints java-ok with the sorted maximum and the threads' sum
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
javac Main.java
java Main
