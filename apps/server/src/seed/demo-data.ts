/** The believable demo fleet seeded on an empty database (never in production). */
import type { TerminalProtocol, ZoneInfo } from '@fleet/contract';
export const DEMO_PASSWORD = 'fleet-demo-2026';

export const demoCompanies = [
  {
    company_id: 'tokyo-mobility',
    company_name: '株式会社東京モビリティサービス',
    name: '青木 誠',
    address: '東京都港区芝浦3-4-1 グランパークタワー12F',
    phone: '03-5441-2201',
    email: 'info@tokyo-mobility.example.jp',
  },
  {
    company_id: 'kanagawa-auto',
    company_name: '神奈川オートリース株式会社',
    name: '石川 恵',
    address: '神奈川県横浜市西区みなとみらい2-2-1',
    phone: '045-220-3100',
    email: 'support@kanagawa-auto.example.jp',
  },
];

export const demoAccounts = [
  {
    account_id: 'admin',
    name: '本部 管理者',
    email: 'admin@fleet.example.jp',
    role: 0,
    company_id: null,
    label: 'スーパー管理者',
  },
  {
    account_id: 'tokyo-admin',
    name: '青木 誠',
    email: 'aoki@tokyo-mobility.example.jp',
    role: 0,
    company_id: 'tokyo-mobility',
    label: '加盟店管理者',
  },
  {
    account_id: 'tokyo-manager',
    name: '森田 沙織',
    email: 'morita@tokyo-mobility.example.jp',
    role: 1,
    company_id: 'tokyo-mobility',
    label: 'マネージャー',
  },
  {
    account_id: 'tokyo-staff',
    name: '村上 直樹',
    email: 'murakami@tokyo-mobility.example.jp',
    role: 2,
    company_id: 'tokyo-mobility',
    label: '一般',
  },
  {
    account_id: 'kanagawa-admin',
    name: '石川 恵',
    email: 'ishikawa@kanagawa-auto.example.jp',
    role: 0,
    company_id: 'kanagawa-auto',
    label: '加盟店管理者（別会社）',
  },
] as const;

const people: [string, string, number, string][] = [
  ['山田', '太郎', 0, '1978-04-12'],
  ['佐藤', '花子', 1, '1985-09-30'],
  ['鈴木', '一郎', 0, '1969-01-05'],
  ['高橋', '美咲', 1, '1992-07-21'],
  ['田中', '健太', 0, '1988-11-02'],
  ['伊藤', 'さくら', 1, '1995-03-18'],
  ['渡辺', '翔', 0, '1990-06-09'],
  ['中村', '陽菜', 1, '1999-12-24'],
  ['小林', '大輔', 0, '1975-08-15'],
  ['加藤', '結衣', 1, '1983-02-27'],
  ['吉田', '拓海', 0, '1997-10-10'],
  ['山本', '葵', 2, '2000-05-05'],
  ['松本', '蓮', 0, '1986-03-03'],
  ['井上', '美月', 1, '1991-09-09'],
  ['木村', '悠斗', 0, '1980-12-01'],
  ['林', '七海', 1, '1994-04-04'],
  ['清水', '隼人', 0, '1982-06-18'],
  ['山崎', '真央', 1, '1989-10-27'],
  ['森', '健二', 0, '1972-02-14'],
  ['池田', '彩', 1, '1996-08-08'],
];
const addresses: [string, string, string][] = [
  ['100-0005', '東京都', '千代田区丸の内1-9-1'],
  ['150-0002', '東京都', '渋谷区渋谷2-21-1'],
  ['160-0022', '東京都', '新宿区新宿3-38-1'],
  ['170-0013', '東京都', '豊島区東池袋1-1-1'],
  ['135-0063', '東京都', '江東区有明3-11-1'],
  ['140-0014', '東京都', '品川区大井1-3-6'],
  ['113-0033', '東京都', '文京区本郷7-3-1'],
  ['110-0005', '東京都', '台東区上野7-1-1'],
  ['130-0022', '東京都', '墨田区江東橋3-14-5'],
  ['164-0001', '東京都', '中野区中野4-1-1'],
  ['180-0004', '東京都', '武蔵野市吉祥寺本町1-8-16'],
  ['190-0012', '東京都', '立川市曙町2-1-1'],
  ['220-0011', '神奈川県', '横浜市西区高島2-16-1'],
  ['210-0007', '神奈川県', '川崎市川崎区駅前本町26-1'],
  ['231-0023', '神奈川県', '横浜市中区山下町279'],
  ['251-0055', '神奈川県', '藤沢市南藤沢2-1-1'],
  ['144-0041', '東京都', '大田区羽田空港3-3-2'],
  ['176-0012', '東京都', '練馬区豊玉北6-12-1'],
  ['120-0034', '東京都', '足立区千住3-92'],
  ['206-0033', '東京都', '多摩市落合1-46-1'],
];
const merchants = [
  '丸の内モータース',
  '渋谷オートセンター',
  '新宿カーショップ',
  '池袋自動車販売',
  '湾岸オート',
  '品川カーズ',
];
const carTypes = [
  'トヨタ プリウス',
  'ホンダ フィット',
  '日産 ノート',
  'マツダ CX-5',
  'スズキ ワゴンR',
  'ダイハツ タント',
  'トヨタ アクア',
  'スバル インプレッサ',
];
const plates = ['品川', '練馬', '足立', '多摩', '世田谷', '杉並', '横浜', '川崎'];
/** The plates of the four terminals added for the TCP protocols, apart so that the first sixteen keep theirs. */
const morePlates = ['八王子', '江東', '葛飾', '板橋'];
const kana = ['あ', 'い', 'う', 'え', 'か', 'さ', 'た', 'な'];

export interface DemoFleetEntry {
  user: Record<string, string | number | null>;
  device: {
    car_device_id: string;
    password: string;
    ipaddr: string;
    macaddr: string;
    car_type: string;
    car_data_id: string;
    protocol: TerminalProtocol;
  };
  car: { car_id: string; car_number: string; car_type: string; car_vin: string; company_id: string };
}

/**
 * Twenty customers, each with a terminal and a vehicle: sixteen in Tokyo, four in Kanagawa.
 *
 * Demo terminals that speak another protocol than ours (docs/device-protocol.md §10-14); the simulator speaks it to the
 * real endpoint. D-demo-12 (C000012) is a phone running Traccar Client; D-demo-14 (C000014) a Teltonika
 * tracker and D-demo-15 (C000015) a GT06 one; D-demo-17 to D-demo-20 (C000017-C000020) a JT/T 808, an H02, a
 * GPS103 and a Queclink tracker, each over its own port (TELTONIKA_PORT, GT06_PORT, JT808_PORT, ...). No demo
 * terminal has a source-address limit (an empty ipaddr, docs/device-protocol.md §13): the demo fleet reports
 * from this machine, and every way in checks the list.
 */
const demoProtocols: Partial<Record<number, TerminalProtocol>> = {
  11: 'osmand',
  13: 'teltonika',
  14: 'gt06',
  16: 'jt808',
  17: 'h02',
  18: 'gps103',
  19: 'gl200',
};

/** Terminal ids that are not IMEIs: JT/T 808 sends its 12-digit phone number, many H02 trackers a 10-digit id. */
const demoTerminalIds: Partial<Record<number, string>> = { 16: '013584091017', 17: '4210170018' };

export function demoFleet(): DemoFleetEntry[] {
  return people.map(([family, given, gender, birthday], i) => {
    const company_id = i < 12 || i >= 16 ? 'tokyo-mobility' : 'kanagawa-auto';
    const [postal, pref, address] = addresses[i]!;
    const n = String(i + 1).padStart(2, '0');
    const carType = carTypes[i % carTypes.length]!;
    return {
      user: {
        user_id: `U-demo-${n}`,
        company_id,
        first_name: family,
        name: given,
        gender,
        birthday,
        user_postal: postal,
        user_state: pref,
        user_address: address,
        user_address_sub: `${(i % 9) + 1}0${i % 7}号室`,
        work_postal: postal,
        work_state: pref,
        work_address: address,
        work_address_sub: '',
        work_phone: `03-${String(3200 + i * 37).padStart(4, '0')}-${String(1000 + i * 211).slice(0, 4)}`,
        merchant: merchants[i % merchants.length]!,
        payment_log: [0, 0, 0, 1, 0, 2, 0, 0, 3, 0, 0, 1, 0, 0, 0, 0][i] ?? 0,
        state: [0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 0, 0, 0][i] ?? 0,
        detail: i === 4 ? '支払い確認中のためアカウント停止' : '',
      },
      device: {
        car_device_id: `D-demo-${n}`,
        password: `terminal-secret-${n}`,
        ipaddr: '',
        macaddr: `02:1A:7F:00:00:${n}`,
        car_type: carType,
        car_data_id: demoTerminalIds[i] ?? `35840910${String(1000000 + i * 7919).slice(-7)}`,
        protocol: demoProtocols[i] ?? 'json',
      },
      car: {
        car_id: `C${String(i + 1).padStart(6, '0')}`,
        car_number: `${i < 16 ? plates[i % plates.length] : morePlates[i - 16]} ${300 + i} ${kana[i % kana.length]} ${String(11 + i * 3).padStart(2, '0')}-${String((20 + i * 5) % 100).padStart(2, '0')}`,
        car_type: carType,
        car_vin: `${carType.includes('プリウス') ? 'ZVW30' : 'GK3'}-${String(5100000 + i * 4243)}`,
        company_id,
      },
    };
  });
}

/**
 * The demo's 拠点・部署 (docs/groups.md) and zones (docs/zones.md), given to the groups: the simulator drives
 * between real places (simulator/places.ts), so the vehicles pass through these zones and the alert inbox and
 * タイムライン fill as the demo runs. Zones sit at places the browser tests' drives never touch (they use
 * Tokyo Station, Skytree, Tokyo Tower and a zone of their own near Shin-Yokohama).
 */
export interface DemoGroup {
  company_id: string;
  name: string;
  /** Indexes into demoFleet(). */
  cars: number[];
  zones: ZoneInfo[];
}

const square = (lat: number, lng: number, dLat: number, dLng: number) => [
  { lat: lat - dLat, lng: lng - dLng },
  { lat: lat - dLat, lng: lng + dLng },
  { lat: lat + dLat, lng: lng + dLng },
  { lat: lat + dLat, lng: lng - dLng },
];

export const demoGroups: DemoGroup[] = [
  {
    company_id: 'tokyo-mobility',
    name: '湾岸営業所',
    cars: [0, 1, 2, 3, 4, 5, 16, 17],
    zones: [
      { name: '豊洲配送センター', shape: 'circle', lat: 35.6456, lng: 139.7842, radius_m: 350, color: '#1c7ed6' },
      { name: '有明物流センター', shape: 'circle', lat: 35.6346, lng: 139.7916, radius_m: 300, color: '#0ca678' },
      { name: '羽田空港', shape: 'polygon', points: square(35.5494, 139.7798, 0.006, 0.008), color: '#e8590c' },
    ],
  },
  {
    company_id: 'tokyo-mobility',
    name: '城西営業所',
    cars: [6, 7, 8, 9, 10, 11, 18, 19],
    zones: [
      { name: '吉祥寺店', shape: 'circle', lat: 35.703, lng: 139.5797, radius_m: 250, color: '#7048e8' },
      { name: '中野店', shape: 'circle', lat: 35.7056, lng: 139.6657, radius_m: 250, color: '#d6336c' },
      { name: '二子玉川店', shape: 'circle', lat: 35.6117, lng: 139.6268, radius_m: 300, color: '#f59f00' },
    ],
  },
  {
    company_id: 'kanagawa-auto',
    name: '横浜営業所',
    cars: [12, 13, 14, 15],
    zones: [
      { name: '本牧ふ頭', shape: 'polygon', points: square(35.4187, 139.6769, 0.005, 0.006), color: '#1c7ed6' },
      { name: '横浜中華街店', shape: 'circle', lat: 35.4423, lng: 139.6453, radius_m: 250, color: '#e03131' },
    ],
  },
];
