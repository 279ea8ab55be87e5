// The package's programmatic entry point.
export { startSandbox, type Sandbox } from './main';
export type { Config } from './config';
