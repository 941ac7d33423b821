/* Tick labels of a time axis in Japan time, 24-hour (uPlot's defaults are US: 7:49am, 11/24/26). */
import { inJapan, pad } from '../../lib/format';

const parts = (sec: number) => {
  const d = inJapan(new Date(sec * 1000));
  return {
    y: d.getUTCFullYear(),
    mo: d.getUTCMonth() + 1,
    d: d.getUTCDate(),
    h: d.getUTCHours(),
    mi: d.getUTCMinutes(),
    s: d.getUTCSeconds(),
  };
};

/**
 * One label per tick (epoch seconds), spaced `incr` seconds apart: days as MM/DD (the year on
 * the first tick and where it changes), times as HH:mm (HH:mm:ss below a minute) with the date
 * underneath on the first tick and where the day changes.
 */
export function timeTicks(splits: readonly number[], incr: number): string[] {
  return splits.map((sec, i) => {
    const t = parts(sec);
    const prev = i > 0 ? parts(splits[i - 1]!) : null;
    const day = `${pad(t.mo)}/${pad(t.d)}`;
    if (incr >= 86_400) return prev?.y === t.y ? day : `${t.y}/${day}`;
    const time = incr < 60 ? `${pad(t.h)}:${pad(t.mi)}:${pad(t.s)}` : `${pad(t.h)}:${pad(t.mi)}`;
    const newDay = !prev || prev.d !== t.d || prev.mo !== t.mo || prev.y !== t.y;
    return newDay ? `${time}\n${t.y}/${day}` : time;
  });
}
