// A grader's persistent worker in JavaScript: one JSON request per line on
// stdin, one JSON answer per line on stdout, until EOF (readline, as a
// Node worker is written).
var rl = require('readline').createInterface({ input: process.stdin });
rl.on('line', function (line) {
    var req = JSON.parse(line), ans;
    if (req.op === 'add') ans = { id: req.id, result: req.args.reduce(function (a, b) { return a + b; }, 0) };
    else ans = { id: req.id, error: 'unknown op' };
    process.stdout.write(JSON.stringify(ans) + '\n');
});
rl.on('close', function () { console.error('worker: end'); });
