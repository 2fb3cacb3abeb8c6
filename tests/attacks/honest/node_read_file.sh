# honest: node_read_file
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: landlock | --no-fork --no-network --clean-env --cpu 5 --mem 256 --landlock | landlock
# setup: blob
# evidence: a Node.js submission reads its input CWD/blob with fs.readFileSync (synchronous calls only: fs.promises needs more threads, see node_async_io.sh), hashes it with crypto, writes CWD/answer.txt; the runner compares the sha256 with its own
# ok-if: { out_has "node-read-ok 5242880" && grep -qx "$(sha256sum <"$CWD/blob" | cut -d' ' -f1)" "$CWD/answer.txt"; } || { out_has "node-missing" && ! command -v node; }
command -v node >/dev/null || { echo node-missing; exit 0; }
exec node -e '
const fs = require("fs"), crypto = require("crypto");
const a = fs.readFileSync("blob");
const ha = crypto.createHash("sha256").update(a).digest("hex");
const fd = fs.openSync("./blob", "r"), b = Buffer.alloc(1 << 16), h = crypto.createHash("sha256");
let n, len = 0;
while ((n = fs.readSync(fd, b, 0, b.length, null)) > 0) { h.update(b.subarray(0, n)); len += n; }
fs.closeSync(fd);
const hb = h.digest("hex");
if (ha !== hb || len !== a.length) { console.log("mismatch"); process.exit(1); }
fs.writeFileSync("answer.txt", hb + "\n");
console.log("node-read-ok", len);
'
