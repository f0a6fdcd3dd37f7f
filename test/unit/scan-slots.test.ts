import { delayToNextSlotMs, slotOffsetMs } from '../../workflows/scan-slots';

// Each account's scheduled scans fall in its own place of the interval, whatever moment its timer is armed.

const HOUR = 3_600_000;
const ids = Array.from({ length: 1000 }, (_, i) => `acc_01M${String(i).padStart(23, '0')}`);

describe('scan slots', () => {
  it("spread a tenant's accounts over the interval, the same way every time", () => {
    const offsets = ids.map((id) => slotOffsetMs(id, 6 * HOUR));
    expect(offsets).toEqual(ids.map((id) => slotOffsetMs(id, 6 * HOUR)));
    // 1,000 accounts over 6 one-hour buckets: none empty, none with more than twice its share.
    const buckets = [0, 0, 0, 0, 0, 0];
    for (const offset of offsets) buckets[Math.floor(offset / HOUR)]! += 1;
    for (const count of buckets) {
      expect(count).toBeGreaterThan(1000 / 6 / 2);
      expect(count).toBeLessThan((1000 / 6) * 2);
    }
  });

  it("arm the next scan at the account's slot, half an interval away at least: so a plan change keeps them spread", () => {
    const interval = 6 * HOUR;
    const armedAt = Date.parse('2026-11-25T10:17:00Z'); // every account re-armed at the same moment
    const due = ids.map((id) => armedAt + delayToNextSlotMs(id, interval, armedAt));
    for (const [i, at] of due.entries()) {
      expect(at - armedAt).toBeGreaterThanOrEqual(interval / 2);
      expect(at - armedAt).toBeLessThan(interval * 1.5);
      expect((at - slotOffsetMs(ids[i]!, interval)) % interval).toBe(0);
    }
    expect(new Set(due).size).toBeGreaterThan(990);
    // Armed on its slot (a scheduled scan just ran), the next one is exactly one interval later.
    const slot = due[0]!;
    expect(delayToNextSlotMs(ids[0]!, interval, slot)).toBe(interval);
  });
});
