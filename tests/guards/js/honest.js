'use strict';
// What a grader's ordinary program does: read input.txt from the working
// directory, compute, write JSON to the temporary directory and read it back,
// and exit with the status asked for (argv[2]).
const fs = require('fs');
const os = require('os');
const path = require('path');

const nums = fs.readFileSync('input.txt', 'utf8').trim().split(/\s+/).map(Number);
const sum = nums.reduce((x, y) => x + y, 0);
const out = path.join(os.tmpdir(), 'honest-' + process.pid + '.json');
fs.writeFileSync(out, JSON.stringify({ sum, n: nums.length }));
const back = JSON.parse(fs.readFileSync(out, 'utf8'));
fs.unlinkSync(out);
fs.writeFileSync('answer.txt', 'sum ' + back.sum + '\n');
console.log('sum ' + back.sum + ' n ' + back.n);
process.exitCode = Number(process.argv[2] || 0);
