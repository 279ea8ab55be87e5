'use strict';
// jest's node environment, where the test files of a worker share one instance of supertest, of express
// and of its router's path-to-regexp, and of playwright-core (test/setup/shared/): jest loads every
// other module afresh for each test file, and these with their dependencies (superagent, formidable,
// mime-db, qs, …) were a sixth of a small file's CPU time; playwright-core alone is half a second of
// each browser test file's. None keeps a test file's state between files: an app, a request, a
// connection to Chromium are made per test, an app's server is kept for one test file at most
// (test/setup/shared/supertest.cjs) (path-to-regexp remembers compiled paths, as it does in a process of
// many sandboxes). They run outside the file's sandbox, so jest's fake timers do not reach their timers.
const path = require('node:path');
const { TestEnvironment } = require('jest-environment-node');

/** The only packages loaded this way: each has a file in test/setup/shared/, named in jest.config.js. */
const SHARED = new Set(['supertest', 'express', 'path-to-regexp', 'playwright-core']);
/**
 * And the tests' compiled schema checks and the documents they check against (test/helpers/compiled-
 * checks.ts): pure functions and JSON, compiled once per run, each a module of some 30 kB to compile.
 */
const CHECKS = path.join(__dirname, '..', '..', 'node_modules', '.cache', 'split-sandbox-checks') + path.sep;
const SHARED_KEY = Symbol.for('split-sandbox.shared-module');
/**
 * What a test file's own modules stop when the file ends, after its last afterAll hook (a hook of the
 * file's may still use it): the servers test/setup/shared/supertest.cjs keeps listening.
 */
const AT_FILE_END = Symbol.for('split-sandbox.at-file-end');

module.exports = class SharedModulesEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    // node's own depth, as the sandbox runs in production: jest's 100 made every refusal's error walk
    // deep into express, and what a failing test prints is cut to its own frames anyway.
    this.global.Error.stackTraceLimit = 10;
    this.global[SHARED_KEY] = (name) => {
      if (!SHARED.has(name) && !(path.isAbsolute(name) && name.startsWith(CHECKS))) throw new Error(`test/setup/environment.cjs: ${name} is not a shared module`);
      return require(name);
    };
    this.atFileEnd = [];
    this.global[AT_FILE_END] = (stop) => void this.atFileEnd.push(stop);
  }

  async teardown() {
    try {
      for (const stop of this.atFileEnd.splice(0)) await stop();
    } finally {
      await super.teardown();
    }
  }
};
