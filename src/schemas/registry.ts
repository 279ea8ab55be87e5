// Every schema that validates input at run time, by a stable name. The build compiles each into
// plain JavaScript (scripts/compile-validators.cjs), so a start does not compile schemas at all.
import type { Schema } from './common';
import { clockAdvanceRequest, disputeEventRequest, faultRequest, merchantCreateRequest, merchantPatchRequest, notificationWaitQuery, paymentEventRequest, refundEventRequest } from './control';
import { merchantsFixture, methodsFixture } from './fixtures';
import {
  addSplitsRequest,
  captureRequest,
  cardAuthenticationRequest,
  cardCaptureRequest,
  cardPayoutRequest,
  cardRefundRequest,
  createCardPaymentRequest,
  createPaymentRequest,
  refundRequest,
} from './requests';
import { snapshotRequest, storyFile } from './reproduce';
import { scenarioFile } from './scenario';

export const VALIDATED: Record<string, Schema> = {
  createPaymentRequest,
  addSplitsRequest,
  captureRequest,
  refundRequest,
  createCardPaymentRequest,
  cardCaptureRequest,
  cardRefundRequest,
  cardPayoutRequest,
  cardAuthenticationRequest,
  paymentEventRequest,
  disputeEventRequest,
  refundEventRequest,
  clockAdvanceRequest,
  merchantPatchRequest,
  merchantCreateRequest,
  notificationWaitQuery,
  faultRequest,
  merchantsFixture,
  methodsFixture,
  scenarioFile,
  snapshotRequest,
  storyFile,
};
