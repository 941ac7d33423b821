import { connect, type Socket } from 'node:net';
import { DEMO_PASSWORD, expect, loginAs, test } from '../support/fixtures';
import { commandTextOf, encodeAvlRecord, encodeLogin, encodeResponse } from '../support/teltonika';
import { demoTerminal } from '../support/terminal';

/** A Teltonika tracker on the server's TELTONIKA_PORT: what it was sent, and a way to wait for more. */
async function teltonikaDevice(imei: string) {
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = connect(Number(process.env.E2E_TELTONIKA_PORT), '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  let received = Buffer.alloc(0);
  socket.on('data', (d: Buffer) => (received = Buffer.concat([received, d])));
  const take = async (n: number) => {
    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(n);
    const out = received.subarray(0, n);
    received = received.subarray(n);
    return out;
  };
  socket.write(encodeLogin(imei));
  expect((await take(1))[0]).toBe(1);
  return { socket, take };
}

test('prohibiting the Teltonika vehicle: setdigout 1 goes out over TCP, the device answers, the screen shows 禁止中', async ({
  page,
}) => {
  const t = demoTerminal(14); // D-demo-14 (C000014) speaks Teltonika in the demo seed
  const device = await teltonikaDevice(t.imei);
  // Parked: ignition off, speed 0, relay not cut (DOUT1 0).
  device.socket.write(
    encodeAvlRecord({
      time: new Date(),
      lat: 35.4657,
      lng: 139.6223,
      speed: 0,
      io: { 239: 0, 240: 0, 179: 0, 66: 12600 },
    }),
  );
  expect((await device.take(4)).readUInt32BE(0)).toBe(1);

  await loginAs(page, 'kanagawa-admin', `/car/car_engine/${t.car_id}/${t.imei}`);
  await expect(page.getByTestId('engine-line')).toHaveText('許可中');
  await page.getByRole('button', { name: 'エンジン始動を禁止' }).click();
  const dialog = page.getByRole('dialog', { name: 'エンジン始動禁止' });
  await dialog.getByLabel('車両番号').fill('杉並 313 さ 50-85');
  await dialog.getByRole('textbox', { name: 'パスワード' }).fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: '禁止する' }).click();
  await expect(dialog).toBeHidden();

  // The command reaches the open connection within the hand-out round (about a second).
  const head = await device.take(8);
  const frame = Buffer.concat([head, await device.take(head.readUInt32BE(4) + 4)]);
  expect(commandTextOf(frame)).toBe('setdigout 1');
  await expect(page.getByTestId('command-status')).toHaveText('結果待ち');
  device.socket.write(encodeResponse('DOUT1:1 Timeout:INFINITY DOUT2:0 Timeout:INFINITY'));
  await expect(page.getByTestId('command-status')).toHaveText('実行完了（成功）');
  await expect(page.getByTestId('engine-line')).toHaveText('禁止中');
  device.socket.destroy();
});
