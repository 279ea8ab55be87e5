// `split-sandbox/testcontainers`: the sandbox's image under Testcontainers (an optional peer dependency).
try {
  require.resolve('testcontainers');
} catch {
  throw new Error('split-sandbox/testcontainers needs the testcontainers package, 11.x: npm install --save-dev testcontainers@11');
}

export {
  SplitSandboxContainer,
  StartedSplitSandboxContainer,
  DEFAULT_IMAGE,
  API_PORT,
  CARD_PORT,
  hostAddressForContainers,
  notificationUrlOnHost,
} from './container';
export {
  SandboxControl,
  SandboxCallError,
  type ClockView,
  type NewMerchant,
  type NotificationListQuery,
  type MerchantView,
  type NotificationPage,
  type NotificationQuery,
  type NotificationView,
  type WaitForOptions,
} from './control-client';
