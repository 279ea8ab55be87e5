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
      properties: { SiteID: { type: 'integer', minimum: 1, description: 'The merchant the payment is created for (default: the first marketplace)' } },
      description: 'Where the story comes from and the statuses it went through',
    },
  },
};

const snapshotOut: Schema = exact({ Name: str, Created: nullableTimestampOut, Payments: int });
export const snapshotResponse: Schema = exact({ Snapshot: snapshotOut });
export const snapshotsResponse: Schema = exact({ Snapshots: { type: 'array', items: snapshotOut } });
export const replayResponse: Schema = exact({ PaymentID: int });
