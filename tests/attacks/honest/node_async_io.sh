# honest: node_async_io
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# xfail: issue 14 (node's first async fs call starts libuv's 4-thread pool: 11 tasks in all, the 11th clone() gets EAGAIN under the default --nproc 10 and libuv aborts: SIGABRT, no message; measured with strace -f, passes with --nproc 11)
# variant: - | --nproc 16 --no-fork --no-network --clean-env --cpu 5 --mem 256 | nproc16
# setup: stdin
# evidence: the usual JS judge template: readline over process.stdin (a file: libuv reads it on its thread pool) plus fs.promises.readFile of its own source; prints the line count and the tokens
# ok-if: out_has "async-ok 3 $(awk '{print $3}' "$RUN/stdin.txt" | tr '\n' ' ')"
read -r -d '' JS <<'SRC'
const fs = require('fs'), readline = require('readline');
const rl = readline.createInterface({ input: process.stdin });
const toks = [];
rl.on('line', l => toks.push(l.split(' ')[2]));
rl.on('close', async () => {
  const me = await fs.promises.readFile(__filename, 'utf8');
  if (!me.includes('readline')) process.exit(3);
  console.log('async-ok', toks.length, toks.join(' ') + ' ');
});
SRC
printf '%s\n' "$JS" >solution.js
exec /usr/bin/node solution.js
