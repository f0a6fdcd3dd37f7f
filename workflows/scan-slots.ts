// When an account's scheduled scans run. Each account has a fixed place in its interval, from its id: a tenant's
// accounts (and everybody's) spread evenly over the interval instead of scanning in lockstep, also after a plan
// change re-arms all of a tenant's timers at once. Pure and deterministic: workflow code calls it.

/** FNV-1a, 32 bits: a stable, well-spread number from the account id. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The account's place in an interval: its scans fall at this offset past every multiple of the interval. */
export function slotOffsetMs(accountId: string, intervalMs: number): number {
  return hash(accountId) % intervalMs;
}

/**
 * Time from `nowMs` to the account's next slot, at least half an interval away (a scan just ran, or verification
 * just started one): between half and one and a half intervals, exactly one interval when `nowMs` is a slot.
 */
export function delayToNextSlotMs(accountId: string, intervalMs: number, nowMs: number): number {
  const sinceSlot = (((nowMs - slotOffsetMs(accountId, intervalMs)) % intervalMs) + intervalMs) % intervalMs;
  const delay = intervalMs - sinceSlot;
  return delay < intervalMs / 2 ? delay + intervalMs : delay;
}
