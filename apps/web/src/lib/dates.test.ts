import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './dates';

describe('dates', () => {
  it('writes a moment as "Jan 5, 2024 3:04 PM" and a day as "Jan 5, 2024", from text, a number or a Date', () => {
    const moment = new Date(2024, 0, 5, 15, 4);
    expect(formatDateTime(moment.toISOString())).toBe('Jan 5, 2024 3:04 PM');
    expect(formatDateTime(moment.getTime())).toBe('Jan 5, 2024 3:04 PM');
    expect(formatDate(moment)).toBe('Jan 5, 2024');
    expect(formatDate(moment.toISOString())).toBe('Jan 5, 2024');
  });

  it('says N/A for nothing or something unreadable', () => {
    for (const value of [null, undefined, '', 'not a date']) {
      expect(formatDateTime(value)).toBe('N/A');
      expect(formatDate(value)).toBe('N/A');
    }
  });
});
