import {
  overHourlyLimit,
  planRecipients,
  type RecipientFacts,
  type RecipientState,
} from '../../domain/alerts/recipients';
import { readRecipientToken, recipientToken } from '../../notify/recipient-links';

// Who an alert e-mail may reach (domain/alerts/recipients.ts), and the signed links that change it.

const state = (s: Partial<RecipientState> = {}): RecipientState => ({
  confirmed: false,
  unsubscribed: false,
  confirmationSent: false,
  ...s,
});
const facts = (f: Partial<RecipientFacts> = {}): RecipientFacts => ({
  ownerVerified: true,
  verifiedUsers: new Set(['owner@acme.test', 'member@acme.test']),
  recipients: new Map(),
  ...f,
});

describe('planRecipients', () => {
  it("sends to nobody while the owner is unverified, the owner's own address included", () => {
    expect(
      planRecipients(['Owner@acme.test', 'member@acme.test', 'x@elsewhere.test'], facts({ ownerVerified: false })),
    ).toEqual({
      send: [],
      confirm: [],
      held: [
        { address: 'owner@acme.test', reason: 'owner_unverified' },
        { address: 'member@acme.test', reason: 'owner_unverified' },
        { address: 'x@elsewhere.test', reason: 'owner_unverified' },
      ],
    });
  });

  it('sends to verified users and confirmed addresses; asks a new address once, and holds it until it confirms', () => {
    const recipients = new Map([
      ['confirmed@x.test', state({ confirmed: true })],
      ['asked@x.test', state({ confirmationSent: true })],
    ]);
    expect(
      planRecipients(
        ['member@acme.test', 'confirmed@x.test', 'asked@x.test', 'new@x.test', 'new@x.test'],
        facts({ recipients }),
      ),
    ).toEqual({
      send: ['member@acme.test', 'confirmed@x.test'],
      confirm: ['new@x.test'],
      held: [
        { address: 'asked@x.test', reason: 'awaiting_confirmation' },
        { address: 'new@x.test', reason: 'awaiting_confirmation' },
      ],
    });
  });

  it("never sends to an address that unsubscribed, the owner's included", () => {
    const recipients = new Map([
      ['owner@acme.test', state({ unsubscribed: true })],
      ['gone@x.test', state({ confirmed: true, unsubscribed: true })],
    ]);
    expect(planRecipients(['owner@acme.test', 'gone@x.test'], facts({ recipients }))).toEqual({
      send: [],
      confirm: [],
      held: [
        { address: 'owner@acme.test', reason: 'unsubscribed' },
        { address: 'gone@x.test', reason: 'unsubscribed' },
      ],
    });
  });

  it('past the hourly allowance, holds everything it would have sent or asked, keeping the other reasons', () => {
    const plan = planRecipients(
      ['member@acme.test', 'new@x.test', 'asked@x.test'],
      facts({ recipients: new Map([['asked@x.test', state({ confirmationSent: true })]]) }),
    );
    expect(overHourlyLimit(plan)).toEqual({
      send: [],
      confirm: [],
      held: [
        { address: 'asked@x.test', reason: 'awaiting_confirmation' },
        { address: 'member@acme.test', reason: 'tenant_hourly_limit' },
        { address: 'new@x.test', reason: 'tenant_hourly_limit' },
      ],
    });
  });
});

describe('recipient links', () => {
  const key = Buffer.alloc(32, 7);
  const now = new Date('2026-11-25T00:00:00Z');
  const link = { purpose: 'confirm' as const, tenantId: 'ten_1', address: 'a.b+c@x.test' };

  it('carry the tenant, the address and the purpose, signed', () => {
    const token = recipientToken(key, link, now);
    expect(readRecipientToken(key, token, now)).toEqual(link);
    expect(readRecipientToken(Buffer.alloc(32, 8), token, now)).toBe('invalid');
    const [purpose, tenant, , expires, signature] = token.split('.');
    const forged = [purpose, tenant, Buffer.from('victim@x.test').toString('base64url'), expires, signature].join('.');
    expect(readRecipientToken(key, forged, now)).toBe('invalid');
    expect(readRecipientToken(key, token.replace(/^confirm/, 'unsubscribe'), now)).toBe('invalid');
    expect(readRecipientToken(key, 'not-a-token', now)).toBe('invalid');
  });

  it('expire after 7 days to confirm, never to unsubscribe', () => {
    const confirm = recipientToken(key, link, now);
    const later = new Date(now.getTime() + 7 * 86_400_000 + 1000);
    expect(readRecipientToken(key, confirm, later)).toBe('expired');
    const unsubscribe = recipientToken(key, { ...link, purpose: 'unsubscribe' }, now);
    expect(readRecipientToken(key, unsubscribe, new Date('2036-01-01T00:00:00Z'))).toEqual({
      ...link,
      purpose: 'unsubscribe',
    });
  });
});
