import { describe, expect, it } from 'vitest';
import { keysToInvalidate } from '../lib/live-updates';
import { liveInvalidators } from './live-invalidators';

describe('live invalidators', () => {
  it("refetches the lists, the home summary and only the changed ticket's detail, not the paged lists and statistics", () => {
    const keys = keysToInvalidate({ position: '1', streams: ['ticket-a', 'ticket-b'], resync: false }, liveInvalidators);
    expect(keys).toEqual([
      ['tickets', 'list'],
      ['tickets', 'summary'],
      ['tickets', 'detail', 'a'],
      ['tickets', 'detail', 'b'],
    ]);
  });

  it('maps the management stream categories to their look-up lists', () => {
    expect(keysToInvalidate({ position: '1', streams: ['client-x'], resync: false }, liveInvalidators)).toEqual([['clients']]);
    expect(keysToInvalidate({ position: '1', streams: ['user-x'], resync: false }, liveInvalidators)).toEqual([['utilisateurs']]);
    expect(keysToInvalidate({ position: '1', streams: ['metiers-catalogue'], resync: false }, liveInvalidators)).toEqual([['metiers'], ['clients'], ['sites'], ['stats']]);
  });
});
