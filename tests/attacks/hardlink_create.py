# attack: hardlink_create
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# needs: root
# evidence: link(2) makes EV/hardlink a second name of a file the program neither owns nor may write (/etc/passwd, root's): what a grader that later chowns or rewrites the program's files would then do to that file (a hard link to the program's own file gives it nothing: it is allowed, for glibc's sem_open); contained by the kernel's fs.protected_hardlinks, where the filter lets link through, and by the filter where it is off
# escaped-if: [ "$(stat -c %i "$EV/hardlink" 2>/dev/null)" = "$(stat -c %i /etc/passwd)" ]
import os, sys
EV = sys.argv[1]
A = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
os.write(1, b"ATTACK-STARTED\n")
try:
    os.link('/etc/passwd', os.path.join(EV, 'hardlink'))
except OSError as e:
    print('link:', e)
