'use strict';
// One escape per name (argv[2]); argv[3] is JSON with the paths the test made.
// Prints what it got ("GOT <bytes>") or the error it saw ("ERR <code>"); the
// test judges by evidence (bytes, files, markers, connections), not by these.
const fs = require('fs');
const name = process.argv[2];
const a = JSON.parse(process.argv[3] || '{}');

function got(x) { console.log('GOT ' + String(x).replace(/\0/g, ' ').trim()); }
function err(e) { console.log('ERR ' + ((e && (e.code || e.message)) || e)); }
function tryit(f) { try { const r = f(); if (r !== undefined) got(r); } catch (e) { err(e); } }
// a child that leaves a marker file, so that a spawn is judged by its effect
const touch = `require('fs').writeFileSync(${JSON.stringify(a.marker || '')}, 'spawned')`;

const attacks = {
  read_sync: () => tryit(() => fs.readFileSync(a.secret, 'utf8')),
  read_promises: () => fs.promises.readFile(a.secret, 'utf8').then(got, err),
  read_stream: () => fs.createReadStream(a.secret).on('data', got).on('error', err),
  read_dotdot: () => tryit(() => fs.readFileSync(a.wd + '/../' + a.rel_secret, 'utf8')),
  read_patched: () => tryit(() => {
    // a check that called the program's path.resolve would see an allowed path
    const path = require('path');
    path.resolve = path.normalize = () => a.wd + '/input.txt';
    return fs.readFileSync(a.secret, 'utf8');
  }),
  write_sync: () => tryit(() => { fs.writeFileSync(a.target, 'pwned'); return 'wrote'; }),
  write_promises: () => fs.promises.writeFile(a.target, 'pwned').then(() => got('wrote'), err),
  symlink_create: () => tryit(() => {
    fs.symlinkSync(a.secret, a.wd + '/link');
    return fs.readFileSync(a.wd + '/link', 'utf8');
  }),
  symlink_existing: () => tryit(() => fs.readFileSync(a.wd + '/link', 'utf8')),
  hardlink: () => tryit(() => {
    fs.linkSync(a.secret, a.wd + '/link');
    return fs.readFileSync(a.wd + '/link', 'utf8');
  }),
  proc_root: () => tryit(() => fs.readFileSync('/proc/self/root' + a.secret, 'utf8')),
  proc_cwd: () => tryit(() => fs.readFileSync('/proc/self/cwd/../' + a.rel_secret, 'utf8')),
  proc_environ: () => tryit(() => fs.readFileSync('/proc/self/environ', 'utf8')),
  proc_parent_environ: () => tryit(() => fs.readFileSync(`/proc/${process.ppid}/environ`, 'utf8')),
  env_credential: () => got('env=' + (process.env.SANDLOCK_TEST_CREDENTIAL || '(absent)')),
  cp_require: () => tryit(() => { require('child_process').execFileSync(process.execPath, ['-e', touch]); }),
  cp_node_prefix: () => tryit(() => { require('node:child_process').spawnSync(process.execPath, ['-e', touch]).error; }),
  cp_binding: () => tryit(() => {
    const ss = process.binding('spawn_sync');
    const r = ss.spawn({ file: process.execPath, args: [process.execPath, '-e', touch],
                         stdio: [{ type: 'ignore' }, { type: 'ignore' }, { type: 'ignore' }] });
    return 'spawned status ' + r.status;
  }),
  cp_load: () => tryit(() => { module.constructor._load('child_process').execFileSync(process.execPath, ['-e', touch]); }),
  cp_import: () => import('child_process').then(
    (m) => tryit(() => { m.execFileSync(process.execPath, ['-e', touch]); }), err),
  cp_exec_shell: () => tryit(() => { require('child_process').execSync(`touch '${a.marker}'`); }),
  dlopen: () => tryit(() => { process.dlopen({ exports: {} }, a.so); }),
  wasi: () => tryit(() => {
    const { WASI } = require('wasi');
    new WASI({ version: 'preview1', preopens: { '/': '/' } });
    return 'wasi made';
  }),
  worker_secret: () => tryit(() => {
    const { Worker } = require('worker_threads');
    // an execArgv of its own: on Node 20 the worker then runs outside the model
    const w = new Worker(`require('worker_threads').parentPort.postMessage(
        require('fs').readFileSync(${JSON.stringify(a.secret)}, 'utf8'))`, { eval: true, execArgv: [] });
    w.on('message', got); w.on('error', err);
  }),
  function_ctor: () => tryit(() => {
    // the predecessor's vm escape: here it only yields the same, guarded process
    const p = Object.constructor('return process')();
    return p.mainModule.require('fs').readFileSync(a.secret, 'utf8');
  }),
  net_connect: () => {
    const s = require('net').connect(a.port, '127.0.0.1', () => { got('connected'); s.end('LEAK'); });
    s.on('error', err);
  },
};

if (!attacks[name]) { console.log('ERR unknown attack ' + name); process.exit(2); }
attacks[name]();
