'use strict';
// The bare limit split-sandbox is measured against: express 5 + better-sqlite3 (WAL, synchronous
// NORMAL, prepared INSERT … RETURNING), parsing the same create body and returning the row as JSON.
// GET /v1/payments returns the newest 10 rows. No validation, no splits, no notifications.
const fs = require('node:fs');
const express = require('express');
const Database = require('better-sqlite3');

const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
const file = process.argv[process.argv.indexOf('--db') + 1];
// --keep: the file stays when the server stops (the cold start on a file that exists starts on it again).
const keep = process.argv.includes('--keep');
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`CREATE TABLE IF NOT EXISTS payments (
  id INTEGER PRIMARY KEY, merchant_transaction_id TEXT NOT NULL, amount TEXT NOT NULL, currency TEXT NOT NULL,
  method_id INTEGER, return_url TEXT, splits TEXT NOT NULL, created_at TEXT NOT NULL)`);
const insert = db.prepare(`INSERT INTO payments (merchant_transaction_id, amount, currency, method_id, return_url, splits, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`);
const list = db.prepare('SELECT * FROM payments ORDER BY id DESC LIMIT 10');
const one = db.prepare('SELECT * FROM payments WHERE id = ?');

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.use(express.json({ limit: '1mb' }));
app.get('/_sandbox/health', (_req, res) => res.json({ Status: 'ok' }));
app.get('/v1/payments', (_req, res) => res.json({ Payments: list.all() }));
app.get('/v1/payments/:id', (req, res) => res.json({ Payment: one.get(Number(req.params.id)) ?? null }));
app.post('/v1/payments', (req, res) => {
  const p = req.body.Payment;
  const row = insert.get(p.MerchantTransactionID, String(p.Amount), p.Currency, p.MethodID, p.ReturnURL, JSON.stringify(p.Splits), new Date().toISOString());
  res.status(201).json({ Payment: { ...row, splits: JSON.parse(row.splits) } });
});
// Port 0 picks a free one: the line says which, as split-sandbox's own does.
const server = app.listen(port, '127.0.0.1', () => process.stdout.write(`API  http://127.0.0.1:${server.address().port}\n`));
for (const s of ['SIGTERM', 'SIGINT']) {
  process.on(s, () => server.close(() => (db.close(), keep || file === ':memory:' || fs.rmSync(file, { force: true }), process.exit(0))));
}
