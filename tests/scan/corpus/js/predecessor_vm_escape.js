// expect: eval@3 eval@6 eval@7 eval@8
// The successor's vm context, escaped through the Function constructor.
const vm = require('vm');
const ctx = vm.createContext({});
const p = vm.runInContext("this.constructor.constructor('return process')()", ctx);
Object.constructor('return process')();
const f = ({}).constructor['constructor'];
new Function('return this')().process.exit(0);
