import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, exportSlots } from './csv.ts';

describe('CSV cells a spreadsheet cannot run', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1+2', "'-1+2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\r=1', `"'\r=1"`],
    ['  =HYPERLINK("x")', `"'  =HYPERLINK(""x"")"`],
  ])('a cell that starts like a formula is text: %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it.each([
    ['refund;=HYPERLINK("http://evil")', `"refund;'=HYPERLINK(""http://evil"")"`],
    ['a;+1;b;@x', `"a;'+1;b;'@x"`],
    ['note; -cmd', `"note;' -cmd"`],
    ['x;\t=1', `"x;'\t=1"`],
  ])('every part after a ";" that starts like a formula is text too, and the cell is quoted: %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('plain numbers stay numbers, in a cell and in a part', () => {
    expect(csvCell('-12.50')).toBe('-12.50');
    expect(csvCell('-3')).toBe('-3');
    expect(csvCell('1;-2.00')).toBe('"1;-2.00"');
  });

  it('quotes commas, quotes and line breaks; empty for null', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvLine(['a', 1, null, '=x'])).toBe("a,1,,'=x\r\n");
  });

  it('no part of any cell, split on "," or ";" after unquoting, starts like a formula', () => {
    const values = ['=1', 'a;=1', 'a; =1', 'a,=1', ';;=1;+2', '"=1"', '=1;', 'x;@y,z;-w'];
    for (const value of values) {
      const cell = csvCell(value);
      const unquoted = cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell;
      // Split on ";" as a spreadsheet set to that separator would, quotes or not.
      for (const part of cell.split(';')) expect(part, `${value} → ${cell}`).not.toMatch(/^\s*[=+\-@]/);
      for (const part of unquoted.split(';')) expect(part, `${value} → ${cell}`).not.toMatch(/^\s*[=+\-@]/);
    }
  });
});

describe('export slots', () => {
  it('at most two per user and four per process; a released slot is free again', () => {
    const slots = exportSlots({ perUser: 2, perProcess: 4, retryAfterSeconds: 5 });
    const a1 = slots.take('a')!;
    const a2 = slots.take('a')!;
    expect(slots.take('a')).toBeNull();
    const b1 = slots.take('b')!;
    slots.take('b');
    expect(slots.take('c')).toBeNull();
    a1();
    a1();
    expect(slots.running).toBe(3);
    expect(slots.take('c')).not.toBeNull();
    expect(slots.take('a')).toBeNull();
    a2();
    b1();
    expect(slots.take('a')).not.toBeNull();
  });
});
