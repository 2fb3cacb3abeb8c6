#!/usr/bin/python3
"""Generate Sandlock's container seccomp profiles from the runtime's default.

    contrib/seccomp/generate.py [--check] [MOBY-DEFAULT.JSON]

(--check: write nothing; exit 1 if the committed files differ from what
the given default profile makes.)

Reads moby's default profile (Debian ships it in golang-github-docker-docker-dev;
tools/setup-debian.sh --test extracts it) and writes, next to this script:

  sandlock-docker.json  Docker/Podman format: the default profile plus the
                        rules below (--security-opt seccomp=FILE)
  sandlock-oci.json     the OCI runtime-spec linux.seccomp object (runc,
                        containerd, a Kubernetes localhostProfile), with the
                        default profile's capability and arch conditions
                        resolved for Docker's default capability set on
                        x86_64 (an OCI profile has no such conditions)

What is added, and why (everything else is the default's):
  clone    with the namespace flags Sandlock creates its run with
           (CLONE_NEWUSER, NEWPID, NEWNS, NEWIPC, NEWNET, NEWUTS); never
           CLONE_NEWCGROUP, which it does not use.  The default allows
           clone only without any namespace flag (unless CAP_SYS_ADMIN).
  unshare  with CLONE_NEWUSER (a user namespace of the run's own, so that
           --nproc counts the run only) and CLONE_FILES (the descriptor
           table hand-over); no other flag.
  mount    the run's private mounts: / made private, a new /proc, tmpfs
           /tmp and /dev/shm, bind mounts of what is handed over.  The
           kernel still asks for CAP_SYS_ADMIN in the user namespace that
           owns the mount namespace, so this works only inside a user
           namespace the process made itself, never on the container's own
           mounts.
  sethostname, setdomainname
           the run's host name (--hostname, nsjail's --hostname) in the uts
           namespace it made; the kernel asks for CAP_SYS_ADMIN in the
           user namespace owning the uts namespace, so the container's own
           name stays out of reach.
Not added: setns, pivot_root, umount2, mount_setattr, open_tree, move_mount,
fsopen/fsmount (Sandlock does not use them), clone3 (stays ENOSYS: its flags
live in memory no filter can read, and the C library falls back to clone).
"""
import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MOBY = "/usr/share/gocode/src/github.com/docker/docker/profiles/seccomp/default.json"
CLONE_NEWCGROUP, CLONE_NEWUSER, CLONE_FILES = 0x02000000, 0x10000000, 0x00000400
DOCKER_CAPS = {"CAP_" + c for c in (
    "CHOWN DAC_OVERRIDE FOWNER FSETID KILL SETGID SETUID SETPCAP NET_BIND_SERVICE "
    "NET_RAW SYS_CHROOT MKNOD AUDIT_WRITE SETFCAP").split()}

ADDED = [
    {"names": ["clone"], "action": "SCMP_ACT_ALLOW",
     "args": [{"index": 0, "value": CLONE_NEWCGROUP, "valueTwo": 0, "op": "SCMP_CMP_MASKED_EQ"}],
     "comment": "sandlock: a run's namespaces (user, pid, mount, ipc, net, uts), never cgroup",
     "includes": {}, "excludes": {"caps": ["CAP_SYS_ADMIN"], "arches": ["s390", "s390x"]}},
    {"names": ["unshare"], "action": "SCMP_ACT_ALLOW",
     "args": [{"index": 0, "value": 0xFFFFFFFF & ~(CLONE_NEWUSER | CLONE_FILES), "valueTwo": 0,
               "op": "SCMP_CMP_MASKED_EQ"}],
     "comment": "sandlock: a user namespace of the run's own, and a private descriptor table",
     "includes": {}, "excludes": {"caps": ["CAP_SYS_ADMIN"]}},
    {"names": ["mount"], "action": "SCMP_ACT_ALLOW", "args": [],
     "comment": "sandlock: the run's private mounts, inside a user namespace of its own",
     "includes": {}, "excludes": {"caps": ["CAP_SYS_ADMIN"]}},
    {"names": ["sethostname", "setdomainname"], "action": "SCMP_ACT_ALLOW", "args": [],
     "comment": "sandlock: the run's host name, in a uts namespace of its own",
     "includes": {}, "excludes": {"caps": ["CAP_SYS_ADMIN"]}},
]


def applies(rule, caps, arch="amd64"):
    inc, exc = rule.get("includes") or {}, rule.get("excludes") or {}
    if inc.get("caps") and not set(inc["caps"]) <= caps:
        return False
    if exc.get("caps") and set(exc["caps"]) & caps:
        return False
    if inc.get("arches") and arch not in inc["arches"]:
        return False
    if exc.get("arches") and arch in exc["arches"]:
        return False
    return True


def render(base):
    docker = copy.deepcopy(base)
    docker["syscalls"] = base["syscalls"] + ADDED
    archs = []
    for m in base["archMap"]:
        if m["architecture"] == "SCMP_ARCH_X86_64":
            archs = [m["architecture"], *m.get("subArchitectures", [])]
    oci = {"defaultAction": base["defaultAction"], "defaultErrnoRet": base.get("defaultErrnoRet", 1),
           "architectures": archs, "syscalls": []}
    for rule in base["syscalls"] + ADDED:
        if not applies(rule, DOCKER_CAPS):
            continue
        r = {"names": rule["names"], "action": rule["action"]}
        if rule.get("errnoRet"):
            r["errnoRet"] = rule["errnoRet"]
        if rule.get("args"):
            r["args"] = rule["args"]
        oci["syscalls"].append(r)
    return {name: json.dumps(obj, indent="\t") + "\n"
            for name, obj in (("sandlock-docker.json", docker), ("sandlock-oci.json", oci))}


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    src = args[0] if args else MOBY
    with open(src) as f:
        out = render(json.load(f))
    stale = []
    for name, text in out.items():
        path = os.path.join(HERE, name)
        if check:
            try:
                with open(path) as f:
                    same = f.read() == text
            except OSError:
                same = False
            if not same:
                stale.append(name)
        else:
            with open(path, "w") as f:
                f.write(text)
    if stale:
        print("generate.py: %s differ from what %s makes; run contrib/seccomp/generate.py"
              % (", ".join(stale), src), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
