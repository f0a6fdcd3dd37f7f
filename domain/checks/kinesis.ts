import { onPart } from './helpers';
import { bySetting } from './settings';
import type { Check } from './types';

// Kinesis data streams stored without server-side encryption.

export const KINESIS_CHECKS: readonly Check[] = [
  {
    id: 'exposure.kinesis_stream_unencrypted',
    service: 'kinesis',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Kinesis data stream not encrypted at rest',
    description:
      'The Kinesis data stream stores its records without server-side encryption: for as long as they are ' +
      'retained, the events it carries sit unencrypted, with no KMS key policy to stand behind.',
    remediation:
      'In the Kinesis console open the stream > Configuration > Encryption > Edit, tick "Enable server-side ' +
      'encryption", choose the AWS managed key (aws/kinesis) or a customer managed key, and save; or run aws kinesis ' +
      'start-stream-encryption --stream-name NAME --encryption-type KMS --key-id alias/aws/kinesis. Producers and ' +
      'consumers need kms:GenerateDataKey and kms:Decrypt on a customer managed key.',
    docsUrl: 'https://docs.aws.amazon.com/streams/latest/dev/server-side-encryption.html',
    controls: { 'aws-fsbp': ['Kinesis.1'] },
    prowler: ['kinesis_stream_encrypted_at_rest'],
    evaluate: onPart('kinesisStreams', ({ streams }) =>
      bySetting(streams, {
        resource: (s) => s.arn,
        fails: (s) => (s.encrypted === null ? null : !s.encrypted),
        detail: (s) => `Kinesis data stream ${s.name} in ${s.region} is not encrypted at rest.`,
        unreadReason: "Kinesis refused the stream's summary, which reports its encryption.",
      }),
    ),
  },
];
