#!/bin/sh
# Print the cgroup v2 directory this process is in, when it may make cgroups
# there (what sandlock's accounting uses without --cgroup); else say why on
# stderr and exit 1.  Read from /proc here, not from sandlock.
d=$(awk '{for (i = 7; i < NF; i++) if ($i == "-") { if ($(i+1) == "cgroup2") print $5; break }}' \
	/proc/self/mountinfo | head -n 1)
if [ -z "$d" ]; then echo "no cgroup2 file system mounted" >&2; exit 1; fi
d=$d$(sed -n 's/^0:://p' /proc/self/cgroup)
d=${d%/}
if [ ! -f "$d/cpu.stat" ]; then echo "$d: no cpu.stat" >&2; exit 1; fi
if [ ! -w "$d" ]; then echo "$d: not writable by uid $(id -u)" >&2; exit 1; fi
echo "$d"
