import { describe, expect, it } from 'vitest';
import { isSelfIntersecting, ZoneInfo } from './zones.js';

const square = [
  { lat: 35.68, lng: 139.76 },
  { lat: 35.68, lng: 139.77 },
  { lat: 35.69, lng: 139.77 },
  { lat: 35.69, lng: 139.76 },
];
const issues = (v: unknown) => {
  const r = ZoneInfo.safeParse(v);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('zone shapes', () => {
  it('takes a circle and a polygon, the other shape’s fields dropped', () => {
    expect(ZoneInfo.parse({ name: '本社', shape: 'circle', lat: 35.68, lng: 139.76, radius_m: 300 })).toMatchObject({
      radius_m: 300,
      points: null,
      color: '#e8590c',
    });
    const p = ZoneInfo.parse({ name: '倉庫', shape: 'polygon', points: [...square, square[0]], lat: 1 });
    expect(p.points).toHaveLength(4);
    expect(p.lat).toBeNull();
  });

  it('refuses bad shapes field by field in Japanese', () => {
    expect(issues({ name: 'a', shape: 'circle', lat: 35, lng: 139, radius_m: 0 })).toEqual({
      radius_m: '半径は1m以上100km以下で入力してください',
    });
    expect(issues({ name: 'a', shape: 'circle', lat: 35, lng: 139, radius_m: 100_001 })).toHaveProperty('radius_m');
    expect(issues({ name: 'a', shape: 'circle', lat: 200, lng: 139, radius_m: 10 })).toEqual({
      lat: '緯度は-90〜90の範囲で入力してください',
    });
    expect(issues({ name: 'a', shape: 'polygon', points: square.slice(0, 2) })).toEqual({
      points: '頂点は3点以上必要です',
    });
    expect(issues({ name: 'a', shape: 'polygon', points: [...square.slice(0, 2), { lat: 200, lng: 1 }] })).toEqual({
      'points.2.lat': '緯度は-90〜90の範囲で入力してください',
    });
    expect(issues({ name: '', shape: 'circle' })).toMatchObject({ name: '必須項目です', lat: '必須項目です' });
  });

  it('refuses a polygon that crosses itself (a bow tie) and one that touches itself', () => {
    const bowTie = [square[0], square[2], square[1], square[3]];
    expect(isSelfIntersecting(bowTie as never)).toBe(true);
    expect(issues({ name: 'a', shape: 'polygon', points: bowTie })).toEqual({
      points: '多角形の辺が交差しています。辺が交わらないように頂点を置いてください',
    });
    expect(isSelfIntersecting(square)).toBe(false);
    // A vertex placed on a non-neighbouring edge.
    const touching = [square[0]!, square[1]!, square[2]!, { lat: 35.68, lng: 139.765 }, square[3]!];
    expect(isSelfIntersecting(touching)).toBe(true);
    // A spike folding back over its own edge.
    expect(isSelfIntersecting([square[0]!, square[1]!, { lat: 35.68, lng: 139.765 }])).toBe(true);
  });
});
