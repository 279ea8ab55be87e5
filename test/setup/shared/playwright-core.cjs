// playwright-core, as loaded once per jest worker (test/setup/environment.cjs says why).
module.exports = globalThis[Symbol.for('split-sandbox.shared-module')]('playwright-core');
