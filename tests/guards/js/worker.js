'use strict';
// An honest Worker: sums 1..n in a thread and prints it, or the refusal.
const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');

if (isMainThread) {
  try {
    const w = new Worker(__filename, { workerData: 1000 });
    w.on('message', (s) => console.log('worker sum ' + s));
    w.on('error', (e) => { console.log('ERR ' + (e.code || e.message)); process.exitCode = 1; });
  } catch (e) {
    console.log('ERR ' + (e.code || e.message));
    process.exitCode = 1;
  }
} else {
  let s = 0;
  for (let i = 1; i <= workerData; i++) s += i;
  parentPort.postMessage(s);
}
