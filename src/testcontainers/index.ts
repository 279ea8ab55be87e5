// `split-sandbox/testcontainers`: the sandbox's image under Testcontainers (an optional peer dependency).
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
