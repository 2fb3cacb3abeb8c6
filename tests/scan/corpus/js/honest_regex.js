#!/usr/bin/env node
// expect: clean
// Honest: reads input, sorts, prints.  Traps: regex literals and strings
// naming child_process, eval( and require('net'); division that looks
// like a regex; template literals with plain expressions.
'use strict';
const fs = require('fs');
const readline = require('node:readline');
const path = require('path');

const re = /require\('child_process'\)|eval\(/g;
const notes = "eval('x'); require('net'); new Function('y')";
const input = fs.readFileSync(0, 'utf8');
const nums = input.split(/\s+/).filter(Boolean).map(Number);
nums.sort((a, b) => a - b);
const total = nums.reduce((a, b) => a + b, 0);
const mean = nums.length ? total / nums.length / 1 : 0;
let execute_query = (q) => `result: ${q.toUpperCase()} /* not a comment */`;
const socket_count = 0, system_total = 2;
const table = [0x0f, 0x01, 0x05];
const obj = { eval: 1, constructor: 2 };
class Point { constructor(x) { this.x = x; } }
console.log(`${mean.toFixed(2)} ${execute_query('a')} ${socket_count + system_total}`, re.source.length,
  notes.length, table.length, obj.eval, new Point(1).x, path.join('a', 'b'), typeof readline, x instanceof Function);
