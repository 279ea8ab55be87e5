// Every schema that validates input at run time, by a stable name. The build compiles each into
// plain JavaScript (scripts/compile-validators.cjs), so a start does not compile schemas at all.
import type { Schema } from './common';
import { preapprovalEventRequest, clockAdvanceRequest, disputeEventRequest, faultRequest, merchantCreateRequest, merchantPatchRequest, notificationWaitQuery, paymentEventRequest, refundEventRequest } from './control';
import { exchangeRatesFixture, merchantsFixture, methodsFixture } from './fixtures';
import {
  addSplitsRequest,
  captureRequest,
  cardAuthenticationRequest,
  cardCaptureRequest,
  cardPayoutRequest,
  cardRefundRequest,
  createCardPaymentRequest,
  createPaymentRequest,
  createPreapprovalRequest,
  changePreapprovalRequest,
  recurrentPaymentRequest,
  refundRequest,
} from './requests';
import { merchantSiteRequest } from './merchant-sites';
import { snapshotRequest, storyFile } from './reproduce';
import { scenarioFile } from './scenario';

export const VALIDATED: Record<string, Schema> = {
  createPaymentRequest,
  recurrentPaymentRequest,
  createPreapprovalRequest,
  changePreapprovalRequest,
  merchantSiteRequest,
  addSplitsRequest,
  captureRequest,
  refundRequest,
  createCardPaymentRequest,
  cardCaptureRequest,
  cardRefundRequest,
  cardPayoutRequest,
  cardAuthenticationRequest,
  paymentEventRequest,
  preapprovalEventRequest,
  disputeEventRequest,
  refundEventRequest,
  clockAdvanceRequest,
  merchantPatchRequest,
  merchantCreateRequest,
  notificationWaitQuery,
  faultRequest,
  merchantsFixture,
  methodsFixture,
  exchangeRatesFixture,
  scenarioFile,
  snapshotRequest,
  storyFile,
};
