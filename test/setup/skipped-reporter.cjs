'use strict';
// Names every skipped test at the end of a run, under the suite that skipped it: a suite that needs
// something absent (an image, a browser, a build) says so in its name, so the summary's "skipped"
// count comes with its reasons.
const path = require('node:path');

class SkippedReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const groups = new Map();
    for (const file of results.testResults) {
      for (const t of file.testResults) {
        if (t.status !== 'pending' && t.status !== 'skipped' && t.status !== 'todo') continue;
        const where = `${path.relative(this.rootDir, file.testFilePath)}: ${t.ancestorTitles[0] ?? t.title}`;
        groups.set(where, (groups.get(where) ?? 0) + 1);
      }
    }
    if (groups.size === 0) return;
    const total = [...groups.values()].reduce((a, b) => a + b, 0);
    const lines = [`${total} test${total === 1 ? '' : 's'} skipped:`];
    for (const [where, n] of groups) lines.push(`  ${n} in ${where}`);
    process.stderr.write(lines.join('\n') + '\n');
  }
}

module.exports = SkippedReporter;
