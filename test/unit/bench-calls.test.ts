import { callsByService, callsTable, minimumCalls, overGoal } from '../../bench/large-account-calls';
import type { AwsRequest } from '../helpers/aws';

const request = (service: string, operation: string | undefined, path = '/', attempt = 1): AwsRequest => ({
  service,
  operation,
  method: 'GET',
  path,
  query: '',
  region: 'us-east-1',
  accessKeyId: 'testing',
  body: '',
  at: 0,
  attempt,
});

const size = {
  users: 10,
  buckets: 4,
  securityGroups: 20,
  functions: 120,
  queues: 8,
  topics: 250,
  snapshots: 40,
  secrets: 3,
  repositories: 2,
  documents: 60,
  keys: 2,
};

describe("the large account's calls next to the fewest the checks need", () => {
  it('counts the pages a list needs in the regions holding resources, and one empty page elsewhere', () => {
    const minimum = minimumCalls({ regions: 6, size }, true);
    // 120 functions over 4 regions: 30 each, one page of 50 each; 2 empty regions; the event source mappings of
    // the 4 regions holding functions; 3 calls per function.
    expect(minimum.lambda).toBe(4 + 2 + 4 + 3 * 120);
    // 250 topics over 4 regions: 63, 63, 62, 62, one page of 100 each; ListSubscriptions per region; one call a topic.
    expect(minimum.sns).toBe(6 + 6 + 250);
    // 60 documents: 15 a region, one page of 50 each; content and share permission per document.
    expect(minimum.ssm).toBe(6 + 2 * 60);
    expect(minimum.ce).toBe(3);
    expect(minimumCalls({ regions: 6, size }, false).ce).toBe(0);
  });

  it('names the operations of a service over the goal, and a service no check needs', () => {
    const made = [
      ...Array.from({ length: 3 }, () => request('kms', 'TrentService.ListKeys')),
      request('lambda', undefined, '/2015-03-31/functions/fn-0001/policy'),
      request('lambda', undefined, '/2015-03-31/functions/fn-0002/policy'),
      request('lambda', undefined, '/2015-03-31/functions/fn-0002/policy', 2),
      request('mystery', 'Describe'),
    ];
    const calls = callsByService(made, { kms: 2, lambda: 2 });
    // Lambda's third call retries one that failed: not the collector's.
    expect(calls.map((c) => [c.service, c.calls, c.retries, c.minimum, overGoal(c)])).toEqual([
      ['kms', 3, 0, 2, true],
      ['lambda', 3, 1, 2, false],
      ['mystery', 1, 0, 0, true],
    ]);
    expect(calls[1]?.operations).toEqual([['GET /2015-03-31/functions/*/policy', 3]]);
    const table = callsTable(calls);
    expect(table).toContain('over 1.1x: TrentService.ListKeys 3');
    expect(table).not.toMatch(/lambda.*over/);
  });
});
