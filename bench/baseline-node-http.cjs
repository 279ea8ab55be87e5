'use strict';
// The floor of a Node server's start: bare node:http, no framework and no database (`--db` is taken and
// left alone, so that the cold-start rows can start it as they start the others). It answers the health
// path and prints its address as split-sandbox does.
const http = require('node:http');

const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
const server = http.createServer((req, res) => {
  const body = req.url === '/_sandbox/health' ? '{"Status":"ok"}' : '{"Message":"not found"}';
  res.writeHead(req.url === '/_sandbox/health' ? 200 : 404, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`API  http://127.0.0.1:${server.address().port}\n`));
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => server.close(() => process.exit(0)));
