# honest: py_subprocess_echo
# flags: --no-network --clean-env --cpu 5 --mem 256
# evidence: a solution that shells out (forking profile): subprocess.run(["/bin/echo", ...], capture_output=True) and check_output with a pipe to /usr/bin/tr; prints what the children printed
# ok-if: out_has "child said: hello from echo" && out_has "piped: HELLO TR"
import subprocess
r = subprocess.run(["/bin/echo", "hello", "from", "echo"], capture_output=True, text=True, check=True)
print("child said:", r.stdout.strip())
out = subprocess.check_output(["/usr/bin/tr", "a-z", "A-Z"], input="hello tr", text=True)
print("piped:", out)
