import { describe, expect, it } from 'vitest';
import { copyrightLine } from './texts';

describe('copyrightLine', () => {
  it('runs from 2020 to the current year', () => {
    expect(copyrightLine(new Date('2031-03-01'))).toMatch(/^© 2020-2031 /);
  });
});
