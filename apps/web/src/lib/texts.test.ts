import { describe, expect, it } from 'vitest';
import { copyrightLine } from './texts';

describe('copyrightLine', () => {
  it('runs from 2020 to the current year, in Japanese', () => {
    expect(copyrightLine(new Date('2031-03-01'))).toBe('© 2020-2031 フリートコンソール株式会社');
  });
});
