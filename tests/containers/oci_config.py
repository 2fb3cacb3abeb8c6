#!/usr/bin/python3
"""Write an OCI bundle's config.json for tests/containers.sh: runc run
directly with contrib/seccomp/sandlock-oci.json as linux.seccomp, the way
containerd (and a Kubernetes localhostProfile) hands it to runc.

    oci_config.py BUNDLE PROFILE UID MASK STAGE ENV=VALUE... -- ARGS...

BUNDLE gets config.json and an empty rootfs; the host's /usr, /lib*, /bin,
/sbin and /etc are bind-mounted read-only, STAGE at /stage, a tmpfs at
/tmp.  MASK is "masked" (runc's usual maskedPaths and readonlyPaths under
/proc, as Docker and containerd set them) or "unmasked" (none: what
systempaths=unconfined / procMount: Unmasked give).  Capabilities are
Docker's default set, effective for uid 0 only, as Docker does.
"""
import json
import os
import sys

DOCKER_CAPS = ["CAP_" + c for c in (
    "CHOWN DAC_OVERRIDE FOWNER FSETID KILL SETGID SETUID SETPCAP NET_BIND_SERVICE "
    "NET_RAW SYS_CHROOT MKNOD AUDIT_WRITE SETFCAP").split()]
MASKED = ["/proc/asound", "/proc/acpi", "/proc/kcore", "/proc/keys", "/proc/latency_stats",
          "/proc/timer_list", "/proc/timer_stats", "/proc/sched_debug", "/proc/scsi",
          "/sys/firmware"]
READONLY = ["/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"]


def main():
    bundle, profile, uid, mask, stage = sys.argv[1:6]
    rest = sys.argv[6:]
    sep = rest.index("--")
    env, args = rest[:sep], rest[sep + 1:]
    uid = int(uid)
    os.makedirs(os.path.join(bundle, "rootfs"), exist_ok=True)
    caps = DOCKER_CAPS if uid == 0 else []
    mounts = [
        {"destination": "/proc", "type": "proc", "source": "proc"},
        {"destination": "/dev", "type": "tmpfs", "source": "tmpfs",
         "options": ["nosuid", "strictatime", "mode=755", "size=65536k"]},
        {"destination": "/dev/pts", "type": "devpts", "source": "devpts",
         "options": ["nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620"]},
        {"destination": "/dev/shm", "type": "tmpfs", "source": "shm",
         "options": ["nosuid", "noexec", "nodev", "mode=1777", "size=65536k"]},
        {"destination": "/dev/mqueue", "type": "mqueue", "source": "mqueue",
         "options": ["nosuid", "noexec", "nodev"]},
        {"destination": "/sys", "type": "sysfs", "source": "sysfs",
         "options": ["nosuid", "noexec", "nodev", "ro"]},
        {"destination": "/tmp", "type": "tmpfs", "source": "tmpfs",
         "options": ["nosuid", "nodev", "mode=1777"]},
    ]
    for d in ("/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc"):
        if os.path.isdir(d) and not os.path.islink(d):
            mounts.append({"destination": d, "type": "bind", "source": d,
                           "options": ["rbind", "ro"]})
        elif os.path.islink(d):
            # merged /usr: a symbolic link in the root, as on the host
            os.symlink(os.readlink(d), os.path.join(bundle, "rootfs", d.lstrip("/")))
    mounts.append({"destination": "/stage", "type": "bind", "source": stage,
                   "options": ["rbind", "ro"]})
    config = {
        "ociVersion": "1.0.2",
        "process": {
            "terminal": False,
            "user": {"uid": uid, "gid": uid},
            "args": args,
            "env": ["PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME=/tmp"] + env,
            "cwd": "/",
            "capabilities": {"bounding": DOCKER_CAPS, "effective": caps,
                             "permitted": caps, "inheritable": []},
            "noNewPrivileges": False,
        },
        "root": {"path": "rootfs", "readonly": True},
        "hostname": "sandlock-oci",
        "mounts": mounts,
        "linux": {
            "namespaces": [{"type": t} for t in ("pid", "network", "ipc", "uts", "mount")],
            "resources": {"devices": [{"allow": False, "access": "rwm"}]},
            "maskedPaths": MASKED if mask == "masked" else [],
            "readonlyPaths": READONLY if mask == "masked" else [],
            "seccomp": json.load(open(profile)),
        },
    }
    with open(os.path.join(bundle, "config.json"), "w") as f:
        json.dump(config, f, indent=1)


if __name__ == "__main__":
    main()
