import type { AdvancedEventSelector, EventSelector } from '@aws-sdk/client-cloudtrail';
import { trailEvents } from '../../cloud/aws/collectors/cloudtrail-events';

// What a trail records, from the selectors GetEventSelectors answers: basic or advanced, as the console and the
// CLI write them. Only selectors that cover every bucket count for S3 object-level logging.

const BOTH = { read: true, write: true };
const NONE = { read: false, write: false };
const basic = (...EventSelectors: EventSelector[]) => trailEvents({ EventSelectors });
const advanced = (...selectors: AdvancedEventSelector['FieldSelectors'][]) =>
  trailEvents({ AdvancedEventSelectors: selectors.map((FieldSelectors) => ({ Name: 'selector', FieldSelectors })) });
const S3_DATA = [
  { Field: 'eventCategory', Equals: ['Data'] },
  { Field: 'resources.type', Equals: ['AWS::S3::Object'] },
];

describe("a trail's events from its basic selectors", () => {
  it("records read and write management events by default (a new trail's selector), and no data events", () => {
    expect(basic({ ReadWriteType: 'All', IncludeManagementEvents: true, DataResources: [] })).toEqual({
      management: BOTH,
      s3Objects: NONE,
    });
    expect(trailEvents({})).toEqual({ management: NONE, s3Objects: NONE });
  });

  it('records S3 objects of every bucket, in any partition, as its ReadWriteType says', () => {
    expect(
      basic({
        ReadWriteType: 'WriteOnly',
        IncludeManagementEvents: true,
        DataResources: [{ Type: 'AWS::S3::Object', Values: ['arn:aws:s3'] }],
      }),
    ).toEqual({ management: { read: false, write: true }, s3Objects: { read: false, write: true } });
    expect(
      basic({
        ReadWriteType: 'ReadOnly',
        IncludeManagementEvents: false,
        DataResources: [{ Type: 'AWS::S3::Object', Values: ['arn:aws-us-gov:s3:::'] }],
      }),
    ).toEqual({ management: NONE, s3Objects: { read: true, write: false } });
  });

  it('does not count selectors that name buckets, or other data types', () => {
    expect(
      basic({ ReadWriteType: 'All', DataResources: [{ Type: 'AWS::S3::Object', Values: ['arn:aws:s3:::payroll/'] }] })
        .s3Objects,
    ).toEqual(NONE);
    expect(
      basic({ ReadWriteType: 'All', DataResources: [{ Type: 'AWS::Lambda::Function', Values: ['arn:aws:lambda'] }] })
        .s3Objects,
    ).toEqual(NONE);
  });

  it('adds up several selectors: reads from one and writes from another', () => {
    const all = [{ Type: 'AWS::S3::Object', Values: ['arn:aws:s3'] }];
    expect(
      basic({ ReadWriteType: 'ReadOnly', DataResources: all }, { ReadWriteType: 'WriteOnly', DataResources: all })
        .s3Objects,
    ).toEqual(BOTH);
  });
});

describe("a trail's events from its advanced selectors", () => {
  it('records management events, also when a noisy source is excluded, and S3 objects of every bucket', () => {
    expect(advanced([{ Field: 'eventCategory', Equals: ['Management'] }], S3_DATA)).toEqual({
      management: BOTH,
      s3Objects: BOTH,
    });
    expect(
      advanced([
        { Field: 'eventCategory', Equals: ['Management'] },
        { Field: 'eventSource', NotEquals: ['kms.amazonaws.com'] },
      ]).management,
    ).toEqual(BOTH);
  });

  it('follows readOnly', () => {
    expect(advanced([...S3_DATA, { Field: 'readOnly', Equals: ['true'] }]).s3Objects).toEqual({
      read: true,
      write: false,
    });
    expect(
      advanced([
        { Field: 'eventCategory', Equals: ['Management'] },
        { Field: 'readOnly', Equals: ['false'] },
      ]).management,
    ).toEqual({ read: false, write: true });
  });

  it('does not count selectors narrowed to some buckets, events or sources', () => {
    expect(advanced([...S3_DATA, { Field: 'resources.ARN', StartsWith: ['arn:aws:s3:::payroll/'] }]).s3Objects).toEqual(
      NONE,
    );
    expect(advanced([...S3_DATA, { Field: 'eventName', Equals: ['PutObject'] }]).s3Objects).toEqual(NONE);
    expect(
      advanced([
        { Field: 'eventCategory', Equals: ['Management'] },
        { Field: 'eventSource', Equals: ['iam.amazonaws.com'] },
      ]).management,
    ).toEqual(NONE);
  });
});
