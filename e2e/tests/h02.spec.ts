import { connect, type Socket } from 'node:net';
import { DEMO_PASSWORD, expect, loginAs, test } from '../support/fixtures';
import { apiAs } from '../support/master-data';
import { demoTerminal } from '../support/terminal';

/** An H02 tracker on the server's H02_PORT: what it was sent, and a way to wait for the next `#`-ended line. */
async function h02Device() {
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = connect(Number(process.env.E2E_H02_PORT), '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  const line = async () => {
    await expect.poll(() => received.includes('#'), { timeout: 30_000 }).toBe(true);
    const end = received.indexOf('#') + 1;
    const out = received.slice(0, end);
    received = received.slice(end);
    return out;
  };
  return { socket, line };
}

const pad = (n: number) => String(n).padStart(2, '0');
const hms = (t: Date) => `${pad(t.getUTCHours())}${pad(t.getUTCMinutes())}${pad(t.getUTCSeconds())}`;
const dmy = (t: Date) => `${pad(t.getUTCDate())}${pad(t.getUTCMonth() + 1)}${pad(t.getUTCFullYear() % 100)}`;
/** Parked in Yokohama: valid fix, 0 knots; status FFFFFBFF = ACC off (bit 10 cleared), fuel line connected. */
const position = (t: Date, status = 'FFFFFBFF') => `${hms(t)},A,3527.9420,N,13937.3380,E,0.00,000,${dmy(t)},${status}`;

test('prohibiting an H02 vehicle: S20 goes out over TCP, the V4 DONE completes it, the screen shows 禁止中', async ({
  page,
}) => {
  const t = demoTerminal(15); // the demo's GT06 terminal, made an H02 one here (its IMEI is a valid H02 id)
  const admin = await apiAs(page.request, 'admin');
  const detail = await admin.call('/api/device_get_detail', { car_device_id: t.car_device_id });
  const update = await admin.call('/api/device_update', {
    info: {
      car_device_id: t.car_device_id,
      ipaddr: detail.body.ipaddr,
      macaddr: detail.body.macaddr,
      car_type: detail.body.car_type,
      car_data_id: t.imei,
      protocol: 'h02',
      cmd_cut_text: '',
      cmd_restore_text: '',
      password: '',
    },
  });
  expect(update.status, JSON.stringify(update.body)).toBe(200);

  const device = await h02Device();
  device.socket.write(`*HQ,${t.imei},V1,${position(new Date())}#`);
  expect(await device.line()).toMatch(new RegExp(`^\\*HQ,${t.imei},V4,V1,\\d{14}#$`));

  await loginAs(page, 'kanagawa-admin', `/car/car_engine/${t.car_id}/${t.imei}`);
  await expect(page.getByTestId('engine-line')).toHaveText('許可中');
  await page.getByRole('button', { name: 'エンジン始動を禁止' }).click();
  const dialog = page.getByRole('dialog', { name: 'エンジン始動禁止' });
  await dialog.getByLabel('車両番号').fill('横浜 314 た 53-90');
  await dialog.getByRole('textbox', { name: 'パスワード' }).fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: '禁止する' }).click();
  await expect(dialog).toBeHidden();

  // S20 as Traccar's H02 encoder sends it, within the hand-out round.
  expect(await device.line()).toMatch(new RegExp(`^\\*HQ,${t.imei},S20,\\d{6},1,1#$`));
  await expect(page.getByTestId('command-status')).toHaveText('結果待ち');
  const now = new Date();
  device.socket.write(`*HQ,${t.imei},V4,S20,DONE,${hms(now)},${position(now, 'F7FFFBFF')}#`);
  await expect(page.getByTestId('command-status')).toHaveText('実行完了（成功）');
  await expect(page.getByTestId('engine-line')).toHaveText('禁止中');
  await page.screenshot({ path: '/tmp/h02-engine.png', fullPage: true });
  device.socket.destroy();
});
