import type { AdvancedEventSelector, EventSelector, GetEventSelectorsCommandOutput } from '@aws-sdk/client-cloudtrail';
import type { ReadWrite, TrailEvents } from '../../../domain/scans/inventory';

// What a trail records, from its event selectors. A trail has either basic selectors (ReadWriteType, management
// events on or off, data resources by type and ARN prefix) or advanced ones (field selectors). Only a selector that
// covers every bucket counts for S3 object-level logging: one that names buckets, or narrows by event name,
// source or principal, leaves the other buckets (and tomorrow's) unlogged, which is what CIS 4.8 and 4.9 are about.

const NONE: ReadWrite = { read: false, write: false };
const either = (a: ReadWrite, b: ReadWrite): ReadWrite => ({ read: a.read || b.read, write: a.write || b.write });

// The ARN prefixes that select every bucket's objects: the partition's S3 ("arn:aws:s3"), or every bucket ("arn:aws:s3:::").
const ALL_BUCKETS = /^arn:[\w-]+:s3(:::(\*\/\*)?)?$/;

function readWriteType(type: EventSelector['ReadWriteType']): ReadWrite {
  if (type === 'ReadOnly') return { read: true, write: false };
  if (type === 'WriteOnly') return { read: false, write: true };
  return { read: true, write: true }; // All, AWS's default
}

function basic(selector: EventSelector): TrailEvents {
  const recorded = readWriteType(selector.ReadWriteType);
  const allBuckets = (selector.DataResources ?? []).some(
    (r) => r.Type === 'AWS::S3::Object' && (r.Values ?? []).some((v) => ALL_BUCKETS.test(v)),
  );
  return {
    management: (selector.IncludeManagementEvents ?? true) ? recorded : NONE,
    s3Objects: allBuckets ? recorded : NONE,
  };
}

/** The readOnly field of an advanced selector: absent records both. */
function readOnlyField(values: string[] | undefined): ReadWrite {
  if (!values) return { read: true, write: true };
  return { read: values.includes('true'), write: values.includes('false') };
}

function advanced(selector: AdvancedEventSelector): TrailEvents {
  const fields = selector.FieldSelectors ?? [];
  const equals = (field: string) => fields.find((f) => f.Field === field)?.Equals;
  const onlyEquals = (field: string) =>
    fields
      .filter((f) => f.Field === field)
      .every(
        (f) =>
          f.Equals !== undefined && !f.StartsWith && !f.EndsWith && !f.NotEquals && !f.NotStartsWith && !f.NotEndsWith,
      );
  const readOnly = onlyEquals('readOnly') ? readOnlyField(equals('readOnly')) : NONE;
  const category = equals('eventCategory') ?? [];
  const others = fields.filter((f) => !['eventCategory', 'readOnly', 'resources.type'].includes(f.Field ?? ''));

  // Management events: excluding a noisy source (the console's "Exclude AWS KMS events") still records the rest.
  const management =
    category.includes('Management') && others.every((f) => f.Field === 'eventSource' && f.NotEquals && !f.Equals)
      ? readOnly
      : NONE;
  const s3Objects =
    category.includes('Data') &&
    onlyEquals('resources.type') &&
    (equals('resources.type') ?? []).includes('AWS::S3::Object') &&
    others.length === 0
      ? readOnly
      : NONE;
  return { management, s3Objects };
}

/** The union of what a trail's selectors record. */
export function trailEvents({
  EventSelectors,
  AdvancedEventSelectors,
}: Pick<GetEventSelectorsCommandOutput, 'EventSelectors' | 'AdvancedEventSelectors'>): TrailEvents {
  const all = [...(EventSelectors ?? []).map(basic), ...(AdvancedEventSelectors ?? []).map(advanced)];
  return all.reduce(
    (into, e) => ({
      management: either(into.management, e.management),
      s3Objects: either(into.s3Objects, e.s3Objects),
    }),
    { management: NONE, s3Objects: NONE },
  );
}
