'use strict';
// Orders test files for a run: the files known to take longest (slow-files.json, slowest first)
// start first, so no long file starts last and leaves one worker running alone at the end. jest
// orders by its cache of past durations when it has one; a fresh clone (as in CI) has none, and
// jest then goes by file size, which says little about a file's time. The list opens with a file that
// builds dist/ before its first test (test/cli/process.ts, ensureBuilt): the files that need the build
// wait for it, so it is started while the other worker runs the slow files that do not. It also tells
// globalSetup (test/setup/validators.ts), which jest runs after it, whether a browser test is in the
// run: the run's Chromium then starts with the run.
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const slowFiles = require('./slow-files.json');

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const browser = path.join('test', 'browser') + path.sep;
    if (tests.some((t) => path.relative(t.context.config.rootDir, t.path).startsWith(browser))) process.env.SPLIT_SANDBOX_TEST_RUN_BROWSER = '1';
    const rank = new Map(slowFiles.map((file, i) => [file, i]));
    const rankOf = (test) => rank.get(path.relative(test.context.config.rootDir, test.path).split(path.sep).join('/'));
    const known = ordered.filter((t) => rankOf(t) !== undefined).sort((a, b) => rankOf(a) - rankOf(b));
    return [...known, ...ordered.filter((t) => rankOf(t) === undefined)];
  }
}

module.exports = SlowFirstSequencer;
