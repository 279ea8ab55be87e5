'use strict';
// One request at a time, in one process with an embedded sandbox (the request journal off, a manual clock), for
// instruction counts that repeat from run to run: `node --single-threaded --predictable bench/sequential.cjs <root>
// <N> <get|list|create>` makes 40 payments, sends 1,000 requests of the kind, then N more, and stops. Under
// `valgrind --tool=cachegrind`, two sizes of N differenced give the instructions of one request (the sandbox's and
// this client's), and one size compared between two builds what one build saves. With wrk's or a client's 16
// connections the count moved by some 25k instructions a request from run to run (how many requests one turn
// of the event loop reads, and whatever runs on timers for as long as the run lasts).
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');

const [root, N, kind] = process.argv.slice(2);
const { startSandbox } = require(path.resolve(root, 'dist', 'index.js'));
const AUTH = 'Basic ' + Buffer.from('30201:5uLXr4Lg+Xb7/3kq8eA2Wd9pN1cQyZ0tM6oVhJfRsE=').toString('base64');
const body = fs.readFileSync(path.join(__dirname, 'create-body.json'), 'utf8').trim();
let seq = 0;

startSandbox({ db: ':memory:', port: 0, cardPort: 0, quiet: true, requestJournal: 0, clock: 'manual' })
  .then(async (sandbox) => {
    const url = new URL(sandbox.listening.baseUrl);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method, p, text) =>
      new Promise((resolve, reject) => {
        const req = http.request({ host: url.hostname, port: url.port, path: p, method, agent, headers: { Authorization: AUTH, 'Content-Type': 'application/json', Accept: 'application/json' } }, (res) => {
          const parts = [];
          res.on('data', (c) => parts.push(c));
          res.on('end', () => resolve([res.statusCode, Buffer.concat(parts).toString()]));
        });
        req.on('error', reject);
        req.end(text);
      });
    const create = () => send('POST', '/v1/payments', body.replaceAll('{SEQ}', `s${seq++}`));
    let id;
    for (let i = 0; i < 40; i++) {
      const [status, text] = await create();
      if (status !== 201) throw new Error(`${status} ${text}`);
      id = JSON.parse(text).Payment.ID;
    }
    const one = kind === 'create' ? create : kind === 'get' ? () => send('GET', `/v1/payments/${id}`) : () => send('GET', '/v1/payments?pageSize=10&pageIndex=2');
    const run = async (n) => {
      for (let i = 0; i < n; i++) {
        const [status, text] = await one();
        if (status >= 300) throw new Error(`${status} ${text}`);
      }
    };
    await run(1000);
    await run(Number(N));
    agent.destroy();
    await sandbox.stop();
  })
  .catch((e) => {
    console.error(e);
    process.exit(1);
  });
