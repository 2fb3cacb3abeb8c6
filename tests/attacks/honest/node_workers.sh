# honest: node_workers
# flags: --nproc 16 --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: - | --nproc 16 --no-fork --no-network --clean-env --cpu 5 --mem 1024 | mem1024
# evidence: 4 worker_threads each sum a range and post the result back; prints workers-ok with the total and the peak thread count (--nproc 16: node's 7 base threads + 1 per Worker + libuv's 4 pool threads once async I/O is used; the default 10 is too few, 11 tasks measured with 4 workers)
# ok-if: out_has "workers-ok 4 150000000"
read -r -d '' JS <<'SRC'
const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');
const fs = require('fs');
if (isMainThread) {
  let done = 0, sum = 0, peak = 0;
  for (let i = 0; i < 4; i++) {
    const w = new Worker(__filename, { workerData: i });
    w.on('message', m => {
      if (m === 'up') { peak = Math.max(peak, fs.readdirSync('/proc/self/task').length); return; }
      sum += m;
      if (++done === 4) console.log('workers-ok', done, sum, 'peak-threads', peak);
    });
    w.on('error', e => { console.log('worker error', e.message); process.exit(2); });
  }
} else {
  parentPort.postMessage('up');
  let s = 0;
  for (let i = 0; i < 3e7; i++) s += i % (workerData + 2);
  parentPort.postMessage(s);
}
SRC
printf '%s\n' "$JS" >solution.js
exec /usr/bin/node solution.js
