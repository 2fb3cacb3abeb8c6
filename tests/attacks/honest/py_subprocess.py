# honest: py_subprocess
# flags: --no-network --clean-env --cpu 5 --mem 256
# variant: landlock | --no-network --clean-env --cpu 5 --mem 256 --landlock | landlock
# evidence: under the forking profile, subprocess.run(["/bin/echo", ...]) with captured output, check_output through a pipe into /usr/bin/tr, and a non-zero exit status of /bin/false; prints subprocess-ok with what the children printed
# ok-if: out_has "subprocess-ok [hello from echo] [HELLO] 1"
import subprocess

r = subprocess.run(["/bin/echo", "hello", "from", "echo"], capture_output=True, text=True, check=True)
up = subprocess.check_output(["/usr/bin/tr", "a-z", "A-Z"], input="hello", text=True)
f = subprocess.run(["/bin/false"]).returncode
print(f"subprocess-ok [{r.stdout.strip()}] [{up}] {f}")
