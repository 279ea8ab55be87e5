'use strict';
// Build step: dist/fresh-database-<digest>.db, the image of a new database with every migration
// applied. A start on a new file or in memory begins from a copy of it instead of running the
// migrations one by one (src/store/db.ts, openNew); the digest names the migrations it was made by.
const fs = require('node:fs');
const path = require('node:path');

const dist = path.join(__dirname, '..', 'dist');
const { freshImageName, migratedImage } = require(path.join(dist, 'store', 'db.js'));
const name = freshImageName();
for (const old of fs.readdirSync(dist).filter((f) => /^fresh-database-[0-9a-f]+\.db$/.test(f) && f !== name)) fs.rmSync(path.join(dist, old));
// Written whole, by rename: a start (or a test) reading the image meanwhile sees the old one or the new one.
const tmp = path.join(dist, `.${name}.${process.pid}.tmp`);
fs.writeFileSync(tmp, migratedImage());
fs.renameSync(tmp, path.join(dist, name));
