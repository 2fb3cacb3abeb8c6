// bench/wasm.py's small JavaScript program: start-up plus a little work
// (a JSON round trip, a regex, a loop), the size of a grader's test.
var data = { name: 'bench', xs: [] };
for (var i = 0; i < 1000; i++) data.xs.push({ i: i, s: 'item' + i });
var back = JSON.parse(JSON.stringify(data));
var hits = JSON.stringify(back).match(/item\d*7\b/g).length;
var sum = 0;
for (var j = 0; j < 100000; j++) sum += j % 7;
console.log(back.xs.length, hits, sum);
