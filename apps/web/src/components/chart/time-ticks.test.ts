import { describe, expect, it } from 'vitest';
import { timeTicks } from './time-ticks';

// 2026-11-24 22:40 UTC = 2026-11-25 07:40 JST
const base = Date.UTC(2026, 10, 24, 22, 40) / 1000;

describe('timeTicks', () => {
  it('writes Japan time on a 24-hour clock with the date where the day starts', () => {
    expect(timeTicks([base, base + 600, base + 1200], 600)).toEqual(['07:40\n2026/11/25', '07:50', '08:00']);
  });
  it('never writes am/pm or M/D/YY', () => {
    const labels = timeTicks([base + 6 * 3600, base + 12 * 3600, base + 18 * 3600], 6 * 3600);
    expect(labels).toEqual(['13:40\n2026/11/25', '19:40', '01:40\n2026/11/26']);
    expect(labels.join(' ')).not.toMatch(/am|pm|(?<![\d/])\d{1,2}\/\d{1,2}\/\d{2}(?!\d)/i);
  });
  it('shows seconds below a minute and days as MM/DD', () => {
    expect(timeTicks([base, base + 30], 30)).toEqual(['07:40:00\n2026/11/25', '07:40:30']);
    expect(timeTicks([base, base + 86_400], 86_400)).toEqual(['2026/11/25', '11/26']);
  });
});
