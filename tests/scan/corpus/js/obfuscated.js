// expect: obfuscated@2 process@2 obfuscated@4 network@5 obfuscated@5 eval@6 obfuscated@6 obfuscated@7 eval@8 process@8 eval@9
const a = require('child_' + 'process');
const name = ['child', 'process'].join('_');
const b = require(name);
const c = require(String.fromCharCode(110, 101, 116));
eval(atob('cmVxdWlyZSgiY2hpbGRfcHJvY2VzcyIp'));
globalThis['req' + 'uire']('fs');
setTimeout("require('child_process').exec('id')", 10);
const t = `${require('vm').runInThisContext('1')}`;
