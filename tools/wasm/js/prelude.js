function (sl) {
// The Node-like surface of the JavaScript guest (node.c gives `sl`):
// console, process, require, timers, and the event loop.  ES5, as Duktape.
'use strict';
var G = new Function('return this')();

// ---- util.format / util.inspect (one line; Node's for short values) ----
var IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
function quote(s) {
    return "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n') + "'";
}
function inspect(v, depth, seen) {
    if (depth === undefined) depth = 2;
    seen = seen || [];
    var t = typeof v;
    if (v === null) return 'null';
    if (t === 'undefined') return 'undefined';
    if (t === 'number') return (v === 0 && 1 / v < 0) ? '-0' : String(v);
    if (t === 'string') return quote(v);
    if (t === 'boolean') return String(v);
    if (t === 'function') return '[Function: ' + (v.name || '(anonymous)') + ']';
    if (v instanceof Error) return v.stack || String(v);
    if (v instanceof Date) return isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString();
    if (v instanceof RegExp) return String(v);
    if (seen.indexOf(v) >= 0) return '[Circular *1]';
    var isArr = Array.isArray(v);
    if (depth < 0) return isArr ? '[Array]' : '[Object]';
    seen.push(v);
    var parts = [], keys = Object.keys(v), i;
    if (isArr) {
        for (i = 0; i < v.length && i < 100; i++) parts.push(i in v ? inspect(v[i], depth - 1, seen) : '<1 empty item>');
        if (v.length > 100) parts.push('... ' + (v.length - 100) + ' more items');
        keys = keys.filter(function (k) { return !/^\d+$/.test(k); });
    }
    for (i = 0; i < keys.length; i++)
        parts.push((IDENT.test(keys[i]) ? keys[i] : quote(keys[i])) + ': ' + inspect(v[keys[i]], depth - 1, seen));
    seen.pop();
    if (isArr) return parts.length ? '[ ' + parts.join(', ') + ' ]' : '[]';
    return parts.length ? '{ ' + parts.join(', ') + ' }' : '{}';
}
function format() {
    var args = Array.prototype.slice.call(arguments), s = '', i = 0;
    if (typeof args[0] === 'string') {
        s = args[0].replace(/%[sdifjoOc%]/g, function (m) {
            if (m === '%%') return '%';
            if (i + 1 >= args.length) return m;
            var a = args[++i];
            switch (m) {
            case '%s': return typeof a === 'string' ? a : inspect(a, 1);
            case '%d': case '%i': return String(m === '%i' ? parseInt(a, 10) : Number(a));
            case '%f': return String(parseFloat(a));
            case '%j': return JSON.stringify(a);
            case '%c': return '';
            default: return inspect(a);
            }
        });
        i++;
    }
    for (; i < args.length; i++)
        s += (s.length || i > 0 ? ' ' : '') + (typeof args[i] === 'string' ? args[i] : inspect(args[i]));
    return s;
}

// ---- events ----
function Emitter() { this._ev = {}; }
Emitter.prototype.on = function (name, f) {
    (this._ev[name] = this._ev[name] || []).push(f);
    if (this._added) this._added(name);
    return this;
};
Emitter.prototype.addListener = Emitter.prototype.on;
Emitter.prototype.once = function (name, f) {
    var self = this;
    function g() { self.removeListener(name, g); return f.apply(this, arguments); }
    return this.on(name, g);
};
Emitter.prototype.removeListener = function (name, f) {
    var l = this._ev[name] || [], i = l.indexOf(f);
    if (i >= 0) l.splice(i, 1);
    return this;
};
Emitter.prototype.off = Emitter.prototype.removeListener;
Emitter.prototype.removeAllListeners = function (name) {
    if (name === undefined) this._ev = {}; else delete this._ev[name];
    return this;
};
Emitter.prototype.emit = function (name) {
    var l = (this._ev[name] || []).slice(), a = Array.prototype.slice.call(arguments, 1);
    for (var i = 0; i < l.length; i++) l[i].apply(this, a);
    return l.length > 0;
};
Emitter.prototype.listenerCount = function (name) { return (this._ev[name] || []).length; };

// ---- process ----
var process = new Emitter();
function Stream(fd) {
    Emitter.call(this);
    this.fd = fd;
    this.isTTY = false;
}
Stream.prototype = Object.create(Emitter.prototype);
Stream.prototype.write = function (s, enc, cb) {
    sl.write(this.fd, String(s));
    if (typeof enc === 'function') enc(); else if (typeof cb === 'function') cb();
    return true;
};
Stream.prototype.end = function (s) { if (s !== undefined) this.write(s); };
process.stdout = new Stream(1);
process.stderr = new Stream(2);
var stdin = process.stdin = new Stream(0);
// stdin's readers: 'data'/'end' listeners, readline interfaces
stdin._paused = false;
stdin._ended = false;
stdin.setEncoding = function () { return this; };
stdin.resume = function () { this._paused = false; return this; };
stdin.pause = function () { this._paused = true; return this; };
stdin.read = function () { return null; };
var lineReaders = [];
function stdinWanted() {
    if (stdin._ended || stdin._paused) return false;
    if (stdin.listenerCount('data') > 0) return true;
    for (var i = 0; i < lineReaders.length; i++) if (!lineReaders[i].closed) return true;
    return false;
}
process.argv = sl.argv.slice();
process.argv[0] = 'node';
process.execArgv = [];
process.env = sl.env;
process.platform = 'wasi';
process.version = 'v0.0.0-duktape';
process.versions = { duktape: String(G.Duktape ? G.Duktape.version : '') };
process.pid = 1;
process.exitCode = undefined;
process.cwd = function () { return '/'; };
process.hrtime = function (prev) {
    var ms = sl.hrtime(), s = Math.floor(ms / 1e3), ns = Math.floor((ms - s * 1e3) * 1e6);
    if (prev) { s -= prev[0]; ns -= prev[1]; if (ns < 0) { s--; ns += 1e9; } }
    return [s, ns];
};
process.memoryUsage = function () { return { rss: 0, heapTotal: 0, heapUsed: 0, external: 0 }; };
process.nextTick = function (f) {
    var a = Array.prototype.slice.call(arguments, 1);
    ticks.push(function () { f.apply(null, a); });
};
var exiting = false;
process.exit = function (code) {
    if (code !== undefined) process.exitCode = code;
    if (!exiting) {
        exiting = true;
        process.emit('exit', process.exitCode || 0);
    }
    sl.exit(process.exitCode || 0);
};
G.process = process;
G.global = G;
G.globalThis = G;

// ---- console ----
var console = {
    log: function () { sl.write(1, format.apply(null, arguments) + '\n'); },
    error: function () { sl.write(2, format.apply(null, arguments) + '\n'); },
    dir: function (v) { sl.write(1, inspect(v) + '\n'); }
};
console.info = console.debug = console.log;
console.warn = console.trace = console.error;
G.console = console;

// ---- timers ----
var timers = [], ticks = [], nextId = 1;
function addTimer(f, ms, args, repeat) {
    ms = Math.max(1, Number(ms) || 0);
    var t = { id: nextId++, f: f, args: args, ms: ms, at: sl.hrtime() + ms, repeat: repeat, seq: nextId };
    timers.push(t);
    return t;
}
function clearTimer(t) {
    var i = timers.indexOf(t);
    if (i >= 0) timers.splice(i, 1);
    if (t) t.repeat = false;
}
G.setTimeout = function (f, ms) { return addTimer(f, ms, Array.prototype.slice.call(arguments, 2), false); };
G.setInterval = function (f, ms) { return addTimer(f, ms, Array.prototype.slice.call(arguments, 2), true); };
G.setImmediate = function (f) { return addTimer(f, 0, Array.prototype.slice.call(arguments, 1), false); };
G.clearTimeout = G.clearInterval = G.clearImmediate = clearTimer;
function runTicks() {
    while (ticks.length) ticks.shift()();
}
// the earliest timer due by `now` (the older first), or null
function dueTimer(now) {
    var best = null;
    for (var i = 0; i < timers.length; i++) {
        var t = timers[i];
        if (t.at <= now && (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq))) best = t;
    }
    return best;
}
function fire(t) {
    timers.splice(timers.indexOf(t), 1);
    if (t.repeat) { t.at = sl.hrtime() + t.ms; t.seq = nextId++; timers.push(t); }
    t.f.apply(null, t.args);
    runTicks();
}

// ---- modules ----
var path = {
    sep: '/',
    delimiter: ':',
    normalize: function (p) {
        var abs = p.charAt(0) === '/', out = [];
        p.split('/').forEach(function (c) {
            if (c === '' || c === '.') return;
            if (c === '..') { if (out.length && out[out.length - 1] !== '..') out.pop(); else if (!abs) out.push('..'); return; }
            out.push(c);
        });
        var s = (abs ? '/' : '') + out.join('/');
        return s || (abs ? '/' : '.');
    },
    join: function () { return path.normalize(Array.prototype.slice.call(arguments).join('/')); },
    resolve: function () {
        var p = '/';
        for (var i = 0; i < arguments.length; i++)
            p = arguments[i].charAt(0) === '/' ? arguments[i] : p + '/' + arguments[i];
        return path.normalize(p);
    },
    isAbsolute: function (p) { return p.charAt(0) === '/'; },
    dirname: function (p) {
        var i = p.replace(/\/+$/, '').lastIndexOf('/');
        return i < 0 ? '.' : i === 0 ? '/' : p.slice(0, i);
    },
    basename: function (p, ext) {
        var b = p.replace(/\/+$/, '');
        b = b.slice(b.lastIndexOf('/') + 1);
        return ext && b.slice(-ext.length) === ext ? b.slice(0, -ext.length) : b;
    },
    extname: function (p) {
        var b = path.basename(p), i = b.lastIndexOf('.');
        return i <= 0 ? '' : b.slice(i);
    }
};
function text(data) {
    return typeof data === 'string' ? data : String(data);
}
function stats(p, follow) {
    var s = sl.stat(p, follow);
    return {
        size: s.size, mtimeMs: s.mtimeMs, mtime: new Date(s.mtimeMs),
        isFile: function () { return s.type === 'file'; },
        isDirectory: function () { return s.type === 'dir'; },
        isSymbolicLink: function () { return s.type === 'link'; }
    };
}
function fdOrPath(p) {
    return p === 0 || p === '/dev/stdin' ? 0 : String(p);
}
var fs = {
    readFileSync: function (p, opts) {
        var s = sl.readFile(fdOrPath(p));
        var enc = typeof opts === 'string' ? opts : opts && opts.encoding;
        if (!enc && typeof Buffer === 'function' && Buffer.from) return Buffer.from(s);
        return s;
    },
    writeFileSync: function (p, data) {
        if (p === 1 || p === 2) { sl.write(p, text(data)); return; }
        sl.writeFile(String(p), text(data), false);
    },
    appendFileSync: function (p, data) { sl.writeFile(String(p), text(data), true); },
    existsSync: function (p) {
        try { sl.stat(String(p), true); return true; } catch (e) { return false; }
    },
    readdirSync: function (p) { return sl.readdir(String(p)).sort(); },
    statSync: function (p) { return stats(String(p), true); },
    lstatSync: function (p) { return stats(String(p), false); },
    mkdirSync: function (p, o) {
        if (o && o.recursive) {
            var parts = path.resolve(String(p)).split('/'), cur = '';
            for (var i = 1; i < parts.length; i++) {
                cur += '/' + parts[i];
                if (!fs.existsSync(cur)) sl.op('mkdir', cur);
            }
            return;
        }
        sl.op('mkdir', String(p));
    },
    rmdirSync: function (p) { sl.op('rmdir', String(p)); },
    unlinkSync: function (p) { sl.op('unlink', String(p)); },
    renameSync: function (a, b) { sl.op('rename', String(a), String(b)); },
    symlinkSync: function (target, p) { sl.op('symlink', String(target), String(p)); },
    linkSync: function (a, b) { sl.op('link', String(a), String(b)); },
    writeSync: function (fd, data) { sl.write(fd, text(data)); }
};
var readline = {
    createInterface: function (opts) {
        var rl = new Emitter();
        rl.closed = false;
        rl.input = opts && opts.input;
        rl.close = function () {
            if (rl.closed) return;
            rl.closed = true;
            rl.emit('close');
        };
        rl.setPrompt = rl.prompt = rl.pause = rl.resume = function () { return rl; };
        rl.write = function (s) { sl.write(1, String(s)); };
        lineReaders.push(rl);
        return rl;
    }
};
var os = { EOL: '\n', platform: function () { return 'wasi'; }, tmpdir: function () { return '/tmp'; } };
var util = { format: format, inspect: function (v) { return inspect(v); }, inherits: function (c, p) {
    c.super_ = p;
    c.prototype = Object.create(p.prototype, { constructor: { value: c, writable: true, configurable: true } });
} };
function assert(ok, msg) {
    if (!ok) { var e = new Error(msg || 'The expression evaluated to a falsy value'); e.code = 'ERR_ASSERTION'; throw e; }
}
assert.ok = assert;
assert.strictEqual = function (a, b, msg) {
    assert(a === b, msg || 'Expected values to be strictly equal:\n\n' + inspect(a) + ' !== ' + inspect(b));
};
assert.deepStrictEqual = function (a, b, msg) {
    assert(JSON.stringify(a) === JSON.stringify(b), msg || 'Expected values to be strictly deep-equal');
};
var events = Emitter;
events.EventEmitter = Emitter;
var builtins = { fs: fs, path: path, readline: readline, os: os, util: util, assert: assert, events: events };
var cache = {};

function load(filename) {
    if (cache[filename]) return cache[filename].exports;
    var module = { exports: {}, filename: filename, id: filename, loaded: false };
    cache[filename] = module;
    var src = sl.readFile(filename);
    if (/\.json$/.test(filename)) {
        module.exports = JSON.parse(src);
    } else {
        if (src.slice(0, 2) === '#!') src = '//' + src.slice(2);
        var f = sl.compile('function (exports, require, module, __filename, __dirname) {' + src + '\n}', filename);
        f.call(module.exports, module.exports, makeRequire(path.dirname(filename)), module, filename,
               path.dirname(filename));
    }
    module.loaded = true;
    return module.exports;
}
function isFile(p) {
    try { return sl.stat(p, true).type === 'file'; } catch (e) { return false; }
}
function makeRequire(dir) {
    return function require(name) {
        name = String(name);
        var bare = name.replace(/^node:/, '');
        if (builtins.hasOwnProperty(bare)) return builtins[bare];
        if (/^(\.{1,2}(\/|$)|\/)/.test(name)) {
            var base = path.resolve(dir, name), tries = [base, base + '.js', base + '.json', base + '/index.js'];
            for (var i = 0; i < tries.length; i++) if (isFile(tries[i])) return load(tries[i]);
        }
        var e = new Error("Cannot find module '" + name + "'");
        e.code = 'MODULE_NOT_FOUND';
        throw e;
    };
}

// ---- the program, then the event loop ----
function loop() {
    runTicks();
    for (;;) {
        var now = sl.hrtime(), t = dueTimer(now);
        if (t) { fire(t); continue; }
        if (stdinWanted()) {
            readStdin();
            continue;
        }
        if (!timers.length) break;
        var next = Infinity;
        for (var i = 0; i < timers.length; i++) next = Math.min(next, timers[i].at);
        sl.sleep(next - now);
    }
}
function readStdin() {
    var want = stdin.listenerCount('data') > 0, s;
    var readers = lineReaders.filter(function (r) { return !r.closed; });
    if (!want && readers.length) {
        s = sl.readLine();
        if (s === null) { end(); return; }
        readers.forEach(function (r) { if (!r.closed) r.emit('line', s); });
    } else {
        s = sl.readChunk();
        if (s === null) { end(); return; }
        stdin.emit('data', s);
        // readline interfaces next to a 'data' reader get the chunk's lines
        if (readers.length) {
            var lines = (pending + s).split('\n');
            pending = lines.pop();
            lines.forEach(function (l) { readers.forEach(function (r) { if (!r.closed) r.emit('line', l.replace(/\r$/, '')); }); });
        }
    }
    runTicks();
}
var pending = '';
function end() {
    stdin._ended = true;
    var readers = lineReaders.filter(function (r) { return !r.closed; });
    if (pending) readers.forEach(function (r) { r.emit('line', pending); });
    pending = '';
    stdin.emit('end');
    stdin.emit('close');
    readers.forEach(function (r) { r.close(); });
    runTicks();
}

function main() {
    var a = sl.argv, i = 1, code = null, file = null;
    if (a[i] === '-e' || a[i] === '--eval') { code = a[i + 1]; i += 2; }
    else if (a[i] !== undefined && a[i] !== '-') { file = path.resolve('/', a[i]); i++; }
    else if (a[i] === '-') i++;
    var rest = a.slice(i);
    if (code !== null) {
        process.argv = ['node'].concat(rest);
        var f = sl.compile('function (exports, require, module, __filename, __dirname) {' + code + '\n}', '[eval]');
        var m = { exports: {} };
        f.call(m.exports, m.exports, makeRequire('/'), m, '[eval]', '.');
    } else if (file !== null) {
        process.argv = ['node', file].concat(rest);
        if (!isFile(file)) {
            var e = new Error("Cannot find module '" + file + "'");
            e.code = 'MODULE_NOT_FOUND';
            throw e;
        }
        load(file);
    } else {
        process.argv = ['node', '-'].concat(rest);
        var src = sl.readFile(0);
        var g = sl.compile('function (exports, require, module, __filename, __dirname) {' + src + '\n}', '[stdin]');
        var m2 = { exports: {} };
        g.call(m2.exports, m2.exports, makeRequire('/'), m2, '[stdin]', '.');
    }
    loop();
}

try {
    main();
} catch (e) {
    sl.flush();
    var msg = e instanceof Error ? (e.stack || String(e)) : 'Uncaught ' + inspect(e);
    sl.write(2, msg + '\n');
    process.exitCode = 1;
    exiting = true;
    sl.exit(1);
}
process.exit();
}
