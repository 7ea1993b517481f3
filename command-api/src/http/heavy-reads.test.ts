import { describe, expect, it } from 'vitest';
import { HeavyReadSlots } from './heavy-reads.js';

describe('HeavyReadSlots', () => {
  it('gives a user at most perUser slots and the instance at most perInstance', () => {
    const slots = new HeavyReadSlots({ perUser: 2, perInstance: 3 });
    const a1 = slots.tryAcquire('a');
    const a2 = slots.tryAcquire('a');
    expect([a1, a2].every(Boolean)).toBe(true);
    expect(slots.tryAcquire('a')).toBeNull(); // per user
    const b1 = slots.tryAcquire('b');
    expect(b1).not.toBeNull();
    expect(slots.tryAcquire('c')).toBeNull(); // per instance
    expect(slots.inFlight).toBe(3);
    a1?.();
    expect(slots.tryAcquire('c')).not.toBeNull();
  });

  it('counts a release once, however many times the answer says it ended', () => {
    const slots = new HeavyReadSlots({ perUser: 1, perInstance: 1 });
    const release = slots.tryAcquire('a');
    release?.();
    release?.(); // 'finish' then 'close'
    expect(slots.inFlight).toBe(0);
    const again = slots.tryAcquire('a');
    expect(again).not.toBeNull();
    expect(slots.tryAcquire('b')).toBeNull();
  });
});
