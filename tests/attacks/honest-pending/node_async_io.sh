# honest: node_async_io
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# xfail: issue 11 (Node has 7 threads at start-up (main thread, V8 platform workers, helpers); the first async fs/crypto/zlib call starts the libuv pool of 4 more: the 11th clone fails with EAGAIN under the default --nproc 10 and libuv abort()s silently: exit 134, verdict runtime_error, empty stderr; --nproc 11 is enough, UV_THREADPOOL_SIZE=2 too)
# variant: - | --no-fork --no-network --clean-env --cpu 5 --mem 256 --nproc 12 | nproc12
# setup: blob
# evidence: a Node.js submission reads its input CWD/blob with fs.readFileSync and again with fs.promises (async I/O: the libuv thread pool), hashes it with crypto, writes CWD/answer.txt; the runner compares the sha256 with its own
# ok-if: { out_has "node-read-ok 5242880" && grep -qx "$(sha256sum <"$CWD/blob" | cut -d' ' -f1)" "$CWD/answer.txt"; } || { out_has "node-missing" && ! command -v node; }
command -v node >/dev/null || { echo node-missing; exit 0; }
exec node -e '
const fs = require("fs"), crypto = require("crypto");
const a = fs.readFileSync("blob");
const ha = crypto.createHash("sha256").update(a).digest("hex");
fs.promises.readFile("./blob").then((b) => {
  const hb = crypto.createHash("sha256").update(b).digest("hex");
  if (ha !== hb) { console.log("mismatch"); process.exit(1); }
  fs.writeFileSync("answer.txt", hb + "\n");
  console.log("node-read-ok", b.length);
});
'
