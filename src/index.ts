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
export type { FaultHit, FaultView } from './faults/faults';
export type { FaultInput, FaultAction, FaultMatch } from './faults/rules';
export type { SnapshotInfo } from './snapshots/snapshots';
export type { StoryFile, StoryStep } from './stories/story';
export type { RequestEntry, RequestQuery } from './requests/journal';
export type { Marketplace, MarketplaceOptions, MarketplaceQuery } from './marketplaces/handle';
export type { SiteSnapshotInfo } from './marketplaces/site-snapshots';
export { startDrift, type Drift, type DriftOptions } from './drift/proxy';
export type { Difference, DifferenceKind, CallRef } from './drift/differences';
