// What a plain-JavaScript (ES5) submission does, printed deterministically:
// the same output with node and under the WebAssembly backend's Duktape.
var fs = require('fs');
var args = process.argv.slice(2);

function main() {
    var words = 'the quick brown fox jumps over the lazy dog the end'.match(/[a-z]+/g);
    var count = {};
    words.forEach(function (w) { count[w] = (count[w] || 0) + 1; });
    console.log('counter', JSON.stringify(Object.keys(count).sort().map(function (k) { return [k, count[k]]; })));
    var data = { a: [1, 2.5, null, true], b: { c: '\u00e9\u2713' }, n: 1e20 };
    var s = JSON.stringify(data);
    console.log('json', s, JSON.stringify(JSON.parse(s)) === s);
    console.log('json pretty', JSON.stringify({ x: [1, { y: 'z' }] }, null, 2));
    console.log('math', Math.sqrt(2), 0.1 + 0.2, Math.pow(2, 53) + 1, (1e21).toString(), (123.456).toFixed(2),
                Math.floor(-7 / 2), -7 % 3, (255).toString(16), parseInt('ff', 16), Number('1e-7'));
    var m = /(\d{4})-(\d{2})-(\d{2})/.exec('on 2024-03-15 and 2025-01-02');
    console.log('regex', m[1], m[2], m[3], 'a,b;;c'.split(/[,;]+/).join('|'),
                'Hello World'.replace(/o/g, '0'), /^[\w.]+@\w+\.\w+$/.test('x.y@z.org'));
    var xs = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5];
    console.log('sort', xs.slice().sort(function (p, q) { return p - q; }).join(','),
                xs.reduce(function (p, q) { return p + q; }, 0), Math.max.apply(null, xs));
    function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
    console.log('fib', fib(20));
    var memo = {};
    function ways(n) { if (n <= 1) return 1; if (memo[n]) return memo[n]; return (memo[n] = ways(n - 1) + ways(n - 2)); }
    console.log('memo', ways(70));
    try { null.x; } catch (e) { console.log('caught', e instanceof TypeError); }
    try { JSON.parse('{bad'); } catch (e) { console.log('caught', e.name); }
    console.log('date', new Date(Date.UTC(2020, 1, 29, 12, 0, 0)).toISOString(), typeof Date.now());
    console.log('string', 'abc'.toUpperCase(), '  pad '.trim(), 'x'.charCodeAt(0), String.fromCharCode(9731),
                encodeURIComponent('a b&c'), 'abcdef'.substring(2, 4), 'a-b-c'.split('-').reverse().join(''));
    console.log('format', 7, 'str', true, null, undefined, [1, 'two', [3]], { k: 'v', n: 1 }, -0);
    console.log('args', args.join(' '));
    fs.writeFileSync('honest-out.txt', 'line 1\nline 2\n');
    fs.appendFileSync('honest-out.txt', 'line 3\n');
    console.log('file', fs.readFileSync('honest-out.txt', 'utf8').split('\n').length, fs.existsSync('honest-out.txt'),
                fs.existsSync('nope.txt'));
    fs.unlinkSync('honest-out.txt');
    setTimeout(function () { console.log('timeout'); }, 5);
    var ticks = 0, iv = setInterval(function () {
        if (++ticks === 3) { clearInterval(iv); console.log('interval', ticks); }
    }, 20);
    console.log('format %s is %d and %j', 'a', 42, { b: 1 });
    try { require('no-such-module'); } catch (e) { console.log('require', e.code); }
    process.on('exit', function (c) { console.log('exit', c); });
    process.stdout.write('written\n');
}
main();
