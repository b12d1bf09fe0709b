import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDay, formatMonth } from './dates';

describe('dates', () => {
  it('writes a moment as "Jan 5, 2024 3:04 PM" and a day as "Jan 5, 2024", from text, a number or a Date', () => {
    const moment = new Date(2024, 0, 5, 15, 4);
    expect(formatDateTime(moment.toISOString())).toBe('Jan 5, 2024 3:04 PM');
    expect(formatDateTime(moment.getTime())).toBe('Jan 5, 2024 3:04 PM');
    expect(formatDate(moment)).toBe('Jan 5, 2024');
    expect(formatDate(moment.toISOString())).toBe('Jan 5, 2024');
  });

  it('writes a calendar day as "Mar 5, 2025" (the day as written, whatever the time zone) and a month as "March 2025"', () => {
    expect(formatDay('2025-03-05')).toBe('Mar 5, 2025');
    expect(formatDay('2025-03-05T23:30:00.000Z')).toBe('Mar 5, 2025');
    expect(formatDay('soon')).toBe('soon');
    expect(formatMonth('2026-11')).toBe('November 2026');
    expect(formatMonth('2026')).toBe('2026');
  });

  it('says N/A for nothing or something unreadable', () => {
    for (const value of [null, undefined, '', 'not a date']) {
      expect(formatDateTime(value)).toBe('N/A');
      expect(formatDate(value)).toBe('N/A');
    }
  });
});
