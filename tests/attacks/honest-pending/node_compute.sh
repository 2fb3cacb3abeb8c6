# honest: node_compute
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: a JavaScript submission under Node.js (V8 JIT: the default profile allows its RWX code memory): sieve of primes below 2e6, sorting 200000 numbers, BigInt factorial, Map/JSON/regex; prints node-ok with known values (node-missing accepted only when the runner has no node either)
# ok-if: out_has "node-ok primes 148933 sorted true fact 9332621544 map 1000 json 3" || { out_has "node-missing" && ! command -v node; }
command -v node >/dev/null || { echo node-missing; exit 0; }
exec node -e '
const N = 2000000, sieve = new Uint8Array(N);
let primes = 0;
for (let i = 2; i < N; i++) if (!sieve[i]) { primes++; for (let j = i * i; j < N; j += i) sieve[j] = 1; }
let x = 12345;
const a = Array.from({ length: 200000 }, () => (x = (x * 1103515245 + 12345) % 2147483648));
a.sort((p, q) => p - q);
const sorted = a.every((v, i) => i === 0 || a[i - 1] <= v);
let f = 1n;
for (let i = 1n; i <= 100n; i++) f *= i;
const m = new Map();
for (let i = 0; i < 100000; i++) m.set("k" + (i % 1000), i);
const j = JSON.parse(JSON.stringify({ a: [1, 2, 3] })).a.length;
const ok = /^(\d+)$/.test(String(primes));
console.log(`node-ok primes ${primes} sorted ${sorted} fact ${String(f).slice(0, 10)} map ${m.size} json ${j}`, ok);
'
