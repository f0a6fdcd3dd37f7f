import { notEvaluatedLabel } from '../../activities/scan-metrics';
import { ReadFailure } from '../../cloud/aws/collectors/failures';

// The reasons a check is not evaluated are sentences; the metric's label is one of four words, whatever the sentence.

const awsError = (name: string, status: number) => Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
const reasonOf = (name: string, status: number) =>
  new ReadFailure({ service: 'GuardDuty', operation: 'ListDetectors', region: 'eu-west-1' }, awsError(name, status)).reason;

describe('notEvaluatedLabel', () => {
  it('names the AWS provider\'s refusals, missing subscriptions and failures', () => {
    expect(notEvaluatedLabel(reasonOf('AccessDeniedException', 403))).toBe('denied');
    expect(notEvaluatedLabel(reasonOf('UnauthorizedOperation', 403))).toBe('denied');
    expect(notEvaluatedLabel(reasonOf('OptInRequired', 403))).toBe('unsubscribed');
    expect(notEvaluatedLabel(reasonOf('SubscriptionRequiredException', 400))).toBe('unsubscribed');
    expect(notEvaluatedLabel(reasonOf('InternalFailure', 500))).toBe('failed');
    expect(notEvaluatedLabel(reasonOf('ValidationException', 400))).toBe('failed');
  });

  it('names the sandbox\'s reasons and anything else as one of the same words', () => {
    expect(notEvaluatedLabel('AWS Health needs a Business or Enterprise support plan')).toBe('unsubscribed');
    expect(notEvaluatedLabel(null)).toBe('failed');
    expect(notEvaluatedLabel('Not read.')).toBe('failed');
  });
});
