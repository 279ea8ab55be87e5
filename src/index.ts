// The package's programmatic entry point: `import { startSandbox } from 'split-sandbox'`.
export {
  startSandbox,
  type Sandbox,
  type SandboxMerchant,
  type NotificationQuery,
  type NotificationView,
  type NotificationPage,
  type WaitForOptions,
} from './main';
export type { Config } from './config';
