'use strict';
// The package.json that ships without the `prepare` script: a clone and a git dependency still build
// on install, but an installed tarball has nothing to prepare, and npm 11.16+ would list the script
// among those "not yet covered by allowScripts" in every project that installs the package.
// `prepack` runs `strip` (after the build), `postpack` runs `restore`. A pack that died between the
// two leaves the saved copy, which the next `strip` puts back first.
const fs = require('node:fs');
const path = require('node:path');

/** The package folder's manifest, and where strip keeps its copy until restore. */
function files(dir) {
  return { manifest: path.join(dir, 'package.json'), saved: path.join(dir, '.package.json.before-pack') };
}

function restore(dir) {
  const { manifest, saved } = files(dir);
  if (fs.existsSync(saved)) fs.renameSync(saved, manifest);
}

function strip(dir) {
  restore(dir);
  const { manifest, saved } = files(dir);
  const text = fs.readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  if (!pkg.scripts || pkg.scripts.prepare === undefined) return;
  fs.writeFileSync(saved, text);
  delete pkg.scripts.prepare;
  fs.writeFileSync(manifest, JSON.stringify(pkg, null, 2) + '\n');
}

// Also loaded by its tests, which call strip and restore without a process of their own.
module.exports = { strip, restore };

if (require.main === module) {
  const dir = process.argv[3] ?? path.resolve(__dirname, '..');
  const command = process.argv[2];
  if (command === 'strip') strip(dir);
  else if (command === 'restore') restore(dir);
  else {
    console.error('usage: node scripts/pack-manifest.cjs strip|restore [package folder]');
    process.exit(2);
  }
}
