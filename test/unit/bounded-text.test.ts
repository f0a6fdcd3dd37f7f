import { boundText, TRUNCATED } from '../../domain/bounded-text';
import { EVENT_TEXT_BYTES, parseEnvelope, toAccountEvent } from '../../domain/events/normalize';
import { boundSignalText, SIGNAL_TEXT_BYTES } from '../../domain/signals/bounds';

// Text from outside that signals and events keep: within a number of UTF-8 bytes, cut at a character with a visible
// marker, the same text always cut the same way (domain/bounded-text.ts, domain/signals/bounds.ts,
// domain/events/normalize.ts).

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('boundText', () => {
  it('keeps text that fits as it is, and cuts the rest to the bound with the marker', () => {
    expect(boundText('bucket', 10)).toBe('bucket');
    expect(boundText('x'.repeat(100), 100)).toBe('x'.repeat(100));
    const cut = boundText('x'.repeat(101), 100);
    expect(cut.endsWith(TRUNCATED)).toBe(true);
    expect(bytes(cut)).toBeLessThanOrEqual(100);
    expect(cut.startsWith('x'.repeat(100 - bytes(TRUNCATED)))).toBe(true);
  });

  it('counts UTF-8 bytes and never splits a character', () => {
    for (const char of ['é', '漢', '🎉']) {
      const text = char.repeat(1_000);
      const cut = boundText(text, 1_024);
      expect(bytes(cut)).toBeLessThanOrEqual(1_024);
      expect(cut.slice(0, -TRUNCATED.length)).toBe(char.repeat([...cut.slice(0, -TRUNCATED.length)].length));
      expect(Buffer.from(cut).toString('utf8')).toBe(cut); // no lone surrogate
    }
  });

  it('cuts the same text the same way, so a bounded name still identifies what it names', () => {
    const name = `bucket-${'a'.repeat(5_000)}`;
    expect(boundText(name, 1_024)).toBe(boundText(name, 1_024));
  });
});

describe('boundSignalText', () => {
  it('bounds each text field of a signal, and leaves the rest alone', () => {
    const huge = 'b'.repeat(200_000);
    const bounded = boundSignalText({
      check_id: 'exposure.s3_bucket_public',
      title: huge,
      description: `Bucket ${huge} is public.`,
      resource: huge,
      owner: huge,
      principal: null,
      region: 'eu-west-1',
    });
    for (const field of ['title', 'description', 'resource', 'owner'] as const) {
      expect(bytes(bounded[field])).toBeLessThanOrEqual(SIGNAL_TEXT_BYTES[field]);
      expect(bounded[field].endsWith(TRUNCATED)).toBe(true);
    }
    expect(bounded).toMatchObject({ check_id: 'exposure.s3_bucket_public', principal: null, region: 'eu-west-1' });
  });
});

describe('what an event keeps of its detail', () => {
  it("cuts the call's name, who made it and from where to their bounds, and keeps the detail as sent", () => {
    const huge = 'a'.repeat(100_000);
    const detail = {
      eventName: `Create${huge}`,
      sourceIPAddress: huge,
      userIdentity: { type: 'IAMUser', arn: `arn:aws:iam::123456789012:user/${huge}` },
    };
    const parsed = parseEnvelope({
      id: 'e-1',
      source: 'aws.iam',
      'detail-type': 'AWS API Call via CloudTrail',
      account: '123456789012',
      time: '2026-03-15T10:00:00Z',
      region: 'us-east-1',
      detail,
    });
    if (!parsed.ok) throw new Error(parsed.reason);
    const event = toAccountEvent(parsed.envelope);
    for (const field of ['eventName', 'actor', 'sourceIp'] as const) {
      expect(bytes(event[field]!)).toBeLessThanOrEqual(EVENT_TEXT_BYTES[field]);
      expect(event[field]!.endsWith(TRUNCATED)).toBe(true);
    }
    expect(event.detail).toBe(detail);
  });
});
