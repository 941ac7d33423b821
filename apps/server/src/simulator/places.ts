import type { LatLng } from './geo.js';

/** Real places the simulated vehicles drive between. */
export interface Place extends LatLng {
  name: string;
}

export const tokyoPlaces: Place[] = [
  { name: '東京駅', lat: 35.6812, lng: 139.7671 },
  { name: '新宿駅', lat: 35.6896, lng: 139.7006 },
  { name: '渋谷駅', lat: 35.658, lng: 139.7016 },
  { name: '池袋駅', lat: 35.7295, lng: 139.7109 },
  { name: '品川駅', lat: 35.6285, lng: 139.7388 },
  { name: '上野駅', lat: 35.7138, lng: 139.7773 },
  { name: '秋葉原駅', lat: 35.6984, lng: 139.7731 },
  { name: '六本木ヒルズ', lat: 35.6604, lng: 139.7292 },
  { name: '東京タワー', lat: 35.6586, lng: 139.7454 },
  { name: '浅草寺', lat: 35.7148, lng: 139.7967 },
  { name: '東京スカイツリー', lat: 35.7101, lng: 139.8107 },
  { name: '豊洲市場', lat: 35.6456, lng: 139.7842 },
  { name: '銀座四丁目', lat: 35.6717, lng: 139.765 },
  { name: '赤坂見附', lat: 35.6771, lng: 139.7369 },
  { name: '目黒駅', lat: 35.634, lng: 139.7158 },
  { name: '中野駅', lat: 35.7056, lng: 139.6657 },
  { name: '二子玉川駅', lat: 35.6117, lng: 139.6268 },
  { name: '羽田空港第1ターミナル', lat: 35.5494, lng: 139.7798 },
  { name: '有明', lat: 35.6346, lng: 139.7916 },
  { name: '吉祥寺駅', lat: 35.703, lng: 139.5797 },
];

export const kanagawaPlaces: Place[] = [
  { name: '横浜駅', lat: 35.4657, lng: 139.6223 },
  { name: 'みなとみらい', lat: 35.4575, lng: 139.6327 },
  { name: '横浜中華街', lat: 35.4423, lng: 139.6453 },
  { name: '新横浜駅', lat: 35.5075, lng: 139.6176 },
  { name: '川崎駅', lat: 35.5313, lng: 139.6968 },
  { name: '武蔵小杉駅', lat: 35.5762, lng: 139.6595 },
  { name: '藤沢駅', lat: 35.339, lng: 139.4875 },
  { name: '本牧ふ頭', lat: 35.4187, lng: 139.6769 },
];
