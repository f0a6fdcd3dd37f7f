import { countNotEvaluated, notEvaluatedLabel } from '../../core/scans/scan-metrics';
import { OUTSIDE_TARGETED_SCAN } from '../../domain/scans/inventory';
import { registry } from '../../observability/metrics';
import { ReadFailure } from '../../cloud/aws/collectors/failures';

// The reasons a check is not evaluated are sentences; the metric's label is one of four words, whatever the sentence.

const awsError = (name: string, status: number) =>
  Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
const reasonOf = (name: string, status: number) =>
  new ReadFailure({ service: 'GuardDuty', operation: 'ListDetectors', region: 'eu-west-1' }, awsError(name, status))
    .reason;

describe('notEvaluatedLabel', () => {
  it("names the AWS provider's refusals, missing subscriptions and failures", () => {
    expect(notEvaluatedLabel(reasonOf('AccessDeniedException', 403))).toBe('denied');
    expect(notEvaluatedLabel(reasonOf('UnauthorizedOperation', 403))).toBe('denied');
    expect(notEvaluatedLabel(reasonOf('OptInRequired', 403))).toBe('unsubscribed');
    expect(notEvaluatedLabel(reasonOf('SubscriptionRequiredException', 400))).toBe('unsubscribed');
    expect(notEvaluatedLabel(reasonOf('InternalFailure', 500))).toBe('failed');
    expect(notEvaluatedLabel(reasonOf('ValidationException', 400))).toBe('failed');
  });

  it("names the sandbox's reasons and anything else as one of the same words", () => {
    expect(notEvaluatedLabel('AWS Health needs a Business or Enterprise support plan')).toBe('unsubscribed');
    expect(notEvaluatedLabel(null)).toBe('failed');
    expect(notEvaluatedLabel('Not read.')).toBe('failed');
  });
});

describe('countNotEvaluated', () => {
  it('counts the checks a scan could not read, not those a targeted rescan left out on purpose', async () => {
    const failedCount = async () =>
      (await registry.getSingleMetric('sentinel_checks_not_evaluated_total')!.get()).values
        .filter((v) => v.labels.reason === 'failed')
        .reduce((sum, v) => sum + v.value, 0);
    const before = await failedCount();
    const outcome = (checkId: string, reason: string) => ({
      checkId,
      status: 'not_evaluated' as const,
      failingResources: 0,
      reason,
      unread: [],
    });
    countNotEvaluated(
      {
        findings: [],
        scored: true,
        coverage: { evaluated: 0, total: 3 },
        outcomes: [outcome('a', OUTSIDE_TARGETED_SCAN), outcome('b', OUTSIDE_TARGETED_SCAN), outcome('c', 'Not read.')],
      },
      undefined,
    );
    expect(await failedCount()).toBe(before + 1);
  });
});
