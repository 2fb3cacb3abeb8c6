#!/usr/bin/python3
"""CPU time (user + system, of sandlock and everything it waited for) per
run of several command lines, interleaved in rotating order as
bench/runner does: on a loaded machine wall-clock start-up is mostly the
scheduler's queue, while the CPU a run costs is still its own.

    bench/cpu_pairs.py ROUNDS NAME 'COMMAND LINE' [NAME 'COMMAND LINE' ...]

Prints per command the median and p10/p90 CPU in microseconds, and for
each pair of commands with the same suffix after '_' (new_seed, old_seed)
the median of the per-round ratios."""
import os
import statistics
import sys

n = int(sys.argv[1])
cmds = list(zip(sys.argv[2::2], (c.split() for c in sys.argv[3::2])))
cpu = {name: [] for name, _ in cmds}
devnull = os.open(os.devnull, os.O_RDWR)
for r in range(n + 3):
    k = len(cmds)
    for i in range(k):
        name, argv = cmds[(r + i) % k]
        pid = os.posix_spawn(argv[0], argv, os.environ,
                             file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1),
                                           (os.POSIX_SPAWN_DUP2, devnull, 2)])
        _, status, ru = os.wait4(pid, 0)
        if r >= 3 and os.waitstatus_to_exitcode(status) == 0:
            cpu[name].append((ru.ru_utime + ru.ru_stime) * 1e6)


def q(v, f):
    v = sorted(v)
    return v[min(len(v) - 1, int(f * len(v)))]


print("# cpu_us NAME ok median p10 p90")
for name, _ in cmds:
    v = cpu[name]
    print("cpu\t%s\t%d\t%.0f\t%.0f\t%.0f" % (name, len(v), statistics.median(v), q(v, .1), q(v, .9)))
print("# ratio of medians A/B")
for a, _ in cmds:
    for b, _ in cmds:
        if a != b and a.split("_", 1)[1] == b.split("_", 1)[1] and (a.startswith("new_") or
                                                                   (a.startswith("nolock_") and b.startswith("old_"))):
            print("cpu_ratio\t%s\t%s\t%.4f" % (a, b, statistics.median(cpu[a]) / statistics.median(cpu[b])))
