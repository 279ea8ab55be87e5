// JSON Schemas of the control API's calls for reproducing a case: snapshots and replayed stories.
import { type Schema, exact, int, nullableTimestampOut, str } from './common';
import { scenarioFile } from './scenario';

/** A snapshot's name: it is also its file's name, so only characters safe in a file name. */
export const SNAPSHOT_NAME = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';

export const snapshotRequest: Schema = {
  type: 'object',
  required: ['Name'],
  additionalProperties: false,
  properties: {
    Name: { type: 'string', pattern: SNAPSHOT_NAME, description: "1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit" },
  },
};

/** `POST /_sandbox/replay`: a story, i.e. a scenario file with the create request of its payment. */
export const storyFile: Schema = {
  ...scenarioFile,
  required: [...(scenarioFile.required as string[]), 'Request'],
  properties: {
    ...(scenarioFile.properties as Record<string, Schema>),
    Request: {
      type: 'object',
      required: ['Payment'],
      properties: { Payment: { type: 'object' } },
      description: 'The create request of the payment ({"Payment": …}), sent again with fresh MerchantTransactionIDs',
    },
    Story: {
      type: 'object',
      properties: {
        PaymentID: { type: 'integer', description: 'The payment the story was told of (not used by a replay)' },
        SiteID: { type: 'integer', minimum: 1, description: 'The merchant the payment is created for (default: the first marketplace)' },
        Scenario: { type: ['string', 'null'], description: 'The scenario the payment followed' },
        Created: { type: 'string', pattern: '^[0-9]{14}$', description: 'When the payment was created, in sandbox time' },
        History: {
          type: 'array',
          description: 'The statuses the payment and its refunds (by index) went through, at their offsets from Created',
          items: exact({ After: str, StatusID: int, StatusInfo: str, Refund: { type: ['integer', 'null'] }, Cause: str }),
        },
      },
      description: 'Where the story comes from and the statuses it went through; a replay reads only SiteID',
    },
  },
};

const snapshotOut: Schema = exact({ Name: str, Created: nullableTimestampOut, Payments: int });
export const snapshotResponse: Schema = exact({ Snapshot: snapshotOut });
export const snapshotsResponse: Schema = exact({ Snapshots: { type: 'array', items: snapshotOut } });
export const replayResponse: Schema = exact({ PaymentID: int });
