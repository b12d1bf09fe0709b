import { describe, expect, it } from 'vitest';
import { isExactNumber } from './json-body.ts';

describe('isExactNumber', () => {
  it('holds a number to the text it was written as', () => {
    const exact = ['0', '-0', '0.1', '1.50', '1e-7', '1E2', '1.5e3', '-12.25', '0.0001', '100e-2', '999999999999.9999', '9007199254740991'];
    for (const text of exact) expect(isExactNumber(text, JSON.parse(text)), text).toBe(true);
    const rounded = [
      '1.00000000000000001',
      '0.10000000000000001',
      '9007199254740993',
      '1e400',
      '-1e-400',
      '123456789012345678901234567890',
    ];
    for (const text of rounded) expect(isExactNumber(text, JSON.parse(text)), text).toBe(false);
  });
});
