"""One escape attempt, named by argv[1]; the paths and the port come from
the command line (the environment may be clean).  Prints ESCAPED and the
evidence when it got through, BLOCKED and why when not, then DONE: a run
that says neither did not run."""
import os
import sys

kind, secret, port, mark = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]


def read(path):
    with open(path, "rb") as f:
        return f.read(4096).decode("latin-1")


def attempt():
    if kind == "abs_secret":
        return read(secret)
    if kind == "passwd":
        return read("/etc/passwd")
    if kind == "dotdot":
        return read("../secret/flag.txt")
    if kind == "dotdot_deep":
        return read("sub/../../../../../../" + secret.lstrip("/"))
    if kind == "proc_environ":
        return read("/proc/self/environ")
    if kind == "proc_list":
        return " ".join(os.listdir("/proc"))
    if kind == "env":
        return os.environ.get("SECRET_TOKEN", "") or "(unset)"
    if kind == "socket":
        import socket
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(b"PWNED")
        return "connected"
    if kind == "subprocess":
        import subprocess
        subprocess.run(["/bin/sh", "-c", "echo x > " + mark], check=True)
        return "ran"
    if kind == "kill":
        import signal
        os.kill(port, signal.SIGKILL)  # here the "port" is the victim's pid
        return "killed"
    if kind == "fork":
        pid = os.fork()
        if pid == 0:
            with open(mark, "w") as f:
                f.write("x")
            os._exit(0)
        os.waitpid(pid, 0)
        return "forked"
    if kind == "planted_link":
        return read("link_abs")
    if kind == "planted_rel_link":
        return read("link_rel")
    if kind == "planted_dir_link":
        return read("rootlink/" + secret.lstrip("/"))
    if kind == "made_link":
        os.symlink(secret, "made")
        return read("made")
    if kind == "hard_link":
        os.link(secret, "hard")
        return read("hard")
    if kind == "write_outside":
        with open("../outside-" + os.path.basename(mark), "w") as f:
            f.write("x")
        return "written"
    raise SystemExit("unknown kind " + kind)


try:
    print("ESCAPED", attempt())
except BaseException as e:  # noqa: B902 -- whatever stopped it
    print("BLOCKED", type(e).__name__, e)
print("DONE")
