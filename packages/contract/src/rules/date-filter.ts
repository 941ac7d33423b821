type DateLike = Date | string | number | null | undefined;

const toTime = (v: DateLike): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const t = v instanceof Date ? v.getTime() : new Date(v).getTime();
  return Number.isNaN(t) ? null : t;
};

/**
 * docs/product.md §5: passes when both bounds are empty, or when the start is at or
 * before the target and the end is at or after it. One bound alone does not pass.
 */
export function passesDateFilter(target: DateLike, from: DateLike, to: DateLike): boolean {
  const f = toTime(from);
  const t = toTime(to);
  if (f === null && t === null) return true;
  const x = toTime(target);
  if (x === null || f === null || t === null) return false;
  return f <= x && t >= x;
}
