'use strict';
// jest's runtime, keeping each module's transformed code for the life of the worker: jest reads every
// module's source again for each test file, hashes it and reads its transformed code from the disk
// cache, for the 160 modules of src/ that a test world loads and for jest's own modules in each file.
// What a file gets is the same text; only the reading, hashing and looking up are done once. A file
// changed since (a watch run's workers live on) is read afresh: its modification time and size are the
// key's too.
const { statSync } = require('node:fs');
const Runtime = require('jest-runtime').default;

/** filename + transform options → the file's modification time and size when read, its code and jest's record of its transform. */
const kept = new Map();

module.exports = class KeptTransformsRuntime extends Runtime {
  transformFile(filename, options) {
    const key = `${filename}\0${options === undefined ? '' : JSON.stringify(options)}`;
    const stat = statSync(filename, { throwIfNoEntry: false });
    const version = stat === undefined ? undefined : `${stat.mtimeMs}:${stat.size}`;
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
