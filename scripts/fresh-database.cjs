'use strict';
// Build step: dist/fresh-database-<digest>.db, the image of a new database with every migration
// applied. A start on a new file or in memory begins from a copy of it instead of running the
// migrations one by one (src/store/db.ts, openNew); the digest names the migrations it was made by.
const fs = require('node:fs');
const path = require('node:path');

const dist = path.join(__dirname, '..', 'dist');
const { freshImageName, migratedImage } = require(path.join(dist, 'store', 'db.js'));
for (const old of fs.readdirSync(dist).filter((f) => /^fresh-database-[0-9a-f]+\.db$/.test(f))) fs.rmSync(path.join(dist, old));
fs.writeFileSync(path.join(dist, freshImageName()), migratedImage());
