// expect: process@2 network@3 process@4 network@5 network@6 dynload@7 dynload@8 dynload@9 process@10 process@11 network@12
import { exec } from 'node:child_process';
import * as net from "net";
const cp = require('child_process');
const d = require("node:dgram");
import('https').then((m) => m);
const addon = require('./addon.node');
process.binding('spawn_sync');
process.dlopen(module, './other.node');
module.constructor._load('child_process');
const w = require('worker_threads');
fetch('http://example.invalid/');
const fs = require('fs');
fs.promises.readFile('input.txt');
