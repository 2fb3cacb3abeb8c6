# honest: node_compute
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256
# setup: blob
# evidence: a JavaScript submission (bash execs node, no fork): JIT-heavy prime sieve plus fs.readFileSync of its 5 MB input file hashed with crypto; the runner recomputes the hash (V8's RWX code pages are allowed without --no-jit)
# ok-if: out_has "node-ok 17984 $(sha256sum < "$CWD/blob" | cut -d' ' -f1)"
read -r -d '' JS <<'SRC'
const fs = require('fs'), crypto = require('crypto');
const data = fs.readFileSync('blob');
let primes = 0;
for (let n = 2; n < 200000; n++) {
  let p = true;
  for (let k = 2; k * k <= n; k++) if (n % k === 0) { p = false; break; }
  if (p) primes++;
}
console.log('node-ok', primes, crypto.createHash('sha256').update(data).digest('hex'));
SRC
printf '%s\n' "$JS" >solution.js
exec /usr/bin/node solution.js
