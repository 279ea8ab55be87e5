'use strict';
// jest's runtime, keeping each module's transformed code for the life of the worker: jest reads every
// module's source again for each test file, hashes it and reads its transformed code from the disk
// cache, for the 160 modules of src/ that a test world loads and for jest's own modules in each file.
// What a file gets is the same text; only the reading, hashing and looking up are done once. A file of
// the project changed since (as in a watch run, or by a test) is read afresh: its modification time and
// size are checked each time. An installed package's are not (jest's own modules are 200 of the 400 a
// small test file loads): a package changes by an install, which no run makes.
const { statSync } = require('node:fs');
const { sep } = require('node:path');
const Runtime = require('jest-runtime').default;

/** filename + transform options → the file's modification time and size when read, its code and jest's record of its transform. */
const kept = new Map();

const NODE_MODULES = `${sep}node_modules${sep}`;
/** What is generated into node_modules/.cache during a run (the compiled validators) is the project's. */
const CACHE = `${NODE_MODULES}.cache${sep}`;
const installed = (filename) => filename.includes(NODE_MODULES) && !filename.includes(CACHE);

function versionOf(filename) {
  const stat = statSync(filename, { throwIfNoEntry: false });
  return stat === undefined ? undefined : `${stat.mtimeMs}:${stat.size}`;
}

module.exports = class KeptTransformsRuntime extends Runtime {
  transformFile(filename, options) {
    const key = `${filename}\0${options === undefined ? '' : JSON.stringify(options)}`;
    const version = installed(filename) ? 'installed' : versionOf(filename);
    const found = kept.get(key);
    if (found !== undefined && found.version === version) {
      // What jest's own transformFile records for a file it transformed (source maps, coverage).
      if (found.transform !== undefined) {
        this._fileTransforms.set(filename, found.transform);
        if (found.transform.sourceMapPath) this._sourceMapRegistry.set(filename, found.transform.sourceMapPath);
      }
      return found.code;
    }
    const code = super.transformFile(filename, options);
    kept.set(key, { version, code, transform: options?.isInternalModule ? undefined : this._fileTransforms.get(filename) });
    return code;
  }
};
