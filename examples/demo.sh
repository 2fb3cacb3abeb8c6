#!/bin/sh
# make demo: one real sandboxed job, explained.  The submission
# (examples/student.py) sums its input, looks for the grader's secret in its
# environment, then tries to fork, which this command line forbids.
# Usage: examples/demo.sh BUILD-DIR
B=${1:-build}
R=$(mktemp "${TMPDIR:-/tmp}/sandlock-demo.XXXXXX") || exit 1
trap 'rm -f "$R"' EXIT
cat <<'TXT'
The grader holds GRADER_SECRET=hunter2 in its environment and runs the
predecessor's command line, with a JSON report:

$ echo 1 2 3 | sandbox_exec --no-fork --no-network --clean-env --cpu 5 --mem 256 \
      --report REPORT -- python3 -u examples/student.py
--- the program's output:
TXT
echo 1 2 3 | GRADER_SECRET=hunter2 "$B/sandbox_exec" --no-fork --no-network --clean-env \
	--cpu 5 --mem 256 --report "$R" -- python3 -u examples/student.py
st=$?
echo "--- exit status: $st"
echo "--- the report ($R):"
cat "$R"
python3 - "$R" "$st" <<'PY'
import json, sys
r, st = json.load(open(sys.argv[1])), int(sys.argv[2])
on = [k for k, v in r["layers"].items() if v]
off = [k for k, v in r["layers"].items() if not v]
print(f"""--- what it says:
verdict {r['verdict']}, exit status {st}: the program printed its sum, did not
  see the secret (--clean-env), and was stopped at its fork ({r['blocked_syscall']}, blocked
  by --no-fork): 159 is 128 + SIGSYS, the status of a blocked system call.
  This is the expected end of the demo: a submission that tries to fork
  fails, the grader is told which call it was.
cpu_ms {r['cpu_ms']}, peak_kb {r['peak_kb']}: the program's own usage.
stdout_bytes {r['stdout_bytes']}: output is counted only where the sandbox relays it
  (--max-output, or a terminal); here the program wrote to the grader's
  stdout directly.
layers on: {', '.join(on)}.
layers off: {', '.join(off)}.
  "landlock" is the filesystem allow-list (--landlock); without it the run
  still has a Landlock domain ("landlock_scope" where the kernel has
  scoping), which keeps other processes' /proc files and ptrace out of
  reach.  A --no-fork run gets no namespaces (pidns ...): it cannot start
  a process to put in them.
missing: {r['missing'] or 'nothing: every layer this host offers was used'}.""")
if r["verdict"] != "syscall_blocked" or st != 159:
    print("demo: not the expected ending (syscall_blocked, 159): see the report", file=sys.stderr)
    sys.exit(1)
PY
