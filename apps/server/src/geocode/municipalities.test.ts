import { describe, expect, it } from 'vitest';
import { municipalityOf } from './municipalities.js';

describe('municipalityOf', () => {
  it.each([
    ['13101', '東京都', '千代田区'],
    ['13104', '東京都', '新宿区'],
    ['27100', '大阪府', '大阪市'],
    ['27127', '大阪府', '大阪市北区'],
    ['14101', '神奈川県', '横浜市鶴見区'],
    ['14130', '神奈川県', '川崎市'],
    ['01100', '北海道', '札幌市'],
    ['1101', '北海道', '札幌市中央区'],
    ['23101', '愛知県', '名古屋市千種区'],
    ['26101', '京都府', '京都市北区'],
    ['40130', '福岡県', '福岡市'],
    ['47201', '沖縄県', '那覇市'],
    ['47382', '沖縄県', '与那国町'],
    ['22138', '静岡県', '浜松市中央区'],
    ['131016', '東京都', '千代田区'],
  ])('%s is %s %s', (code, prefecture, name) => {
    expect(municipalityOf(code)).toEqual({ prefecture, name });
  });

  it('knows nothing of codes outside the table', () => {
    expect(municipalityOf('99999')).toBeUndefined();
    expect(municipalityOf('')).toBeUndefined();
    expect(municipalityOf(null)).toBeUndefined();
    expect(municipalityOf('13-101')).toBeUndefined();
  });
});
