// One escape attempt in JavaScript, named by argv[2] (tests/wasm_js.py;
// the twin of escape.py): node on the host, then the backend's Duktape.
// Prints ESCAPED and the evidence when it got through, BLOCKED and why
// when not, then DONE: a run that says neither did not run.
var fs = require('fs');
var a = process.argv.slice(2), kind = a[0], secret = a[1], port = Number(a[2]), mark = a[3];

function read(p) { return fs.readFileSync(p, 'latin1').slice(0, 4096); }

function attempt(done) {
    switch (kind) {
    case 'abs_secret': return done(read(secret));
    case 'passwd': return done(read('/etc/passwd'));
    case 'dotdot': return done(read('../secret/flag.txt'));
    case 'dotdot_deep': return done(read('sub/../../../../../../' + secret.replace(/^\/+/, '')));
    case 'proc_environ': return done(read('/proc/self/environ'));
    case 'proc_list': return done(fs.readdirSync('/proc').join(' '));
    case 'env': return done(process.env.SECRET_TOKEN || '(unset)');
    case 'socket':
        var s = require('net').connect(port, '127.0.0.1', function () {
            s.end('PWNED');
            done('connected');
        });
        s.on('error', function (e) { done(null, e); });
        return;
    case 'subprocess':
        require('child_process').execFileSync('/bin/sh', ['-c', 'echo x > ' + mark]);
        return done('ran');
    case 'kill':
        process.kill(port, 'SIGKILL'); // here the "port" is the victim's pid
        return done('killed');
    case 'planted_link': return done(read('link_abs'));
    case 'planted_rel_link': return done(read('link_rel'));
    case 'planted_dir_link': return done(read('rootlink/' + secret.replace(/^\/+/, '')));
    case 'made_link':
        fs.symlinkSync(secret, 'made');
        return done(read('made'));
    case 'hard_link':
        fs.linkSync(secret, 'hard');
        return done(read('hard'));
    case 'write_outside':
        fs.writeFileSync('../outside-' + mark.replace(/.*\//, ''), 'x');
        return done('written');
    }
    throw new Error('unknown kind ' + kind);
}

function report(what, err) {
    if (err) console.log('BLOCKED', err.name, err.message);
    else console.log('ESCAPED', what);
    console.log('DONE');
}
try {
    attempt(report);
} catch (e) {
    report(null, e);
}
