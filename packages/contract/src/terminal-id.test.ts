import { describe, expect, it } from 'vitest';
import { DeviceDeleteRequest, DeviceForm } from './device.js';

const form = (car_data_id: string, protocol?: string) => ({
  car_device_id: 'dev-1',
  password: 'secret-pass-1',
  car_data_id,
  ...(protocol ? { protocol } : {}),
});
const idError = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.error?.issues.find((i) => i.path.join('.') === 'car_data_id')?.message;

/** The terminal id rule per protocol: IMEIs where the protocol sends one, 10-digit H02 ids, 12/20-digit JT/T 808 numbers. */
describe('car_data_id per protocol', () => {
  it('keeps the 15-digit IMEI rule for the IMEI protocols', () => {
    for (const protocol of [undefined, 'osmand', 'teltonika', 'gt06', 'gps103', 'gl200']) {
      expect(DeviceForm.safeParse(form('356307042441013', protocol)).success).toBe(true);
      expect(idError(DeviceForm.safeParse(form('1234567890', protocol)))).toBe('IMEIは15桁の数字で入力してください');
    }
  });
  it('takes a 10-digit H02 id or an IMEI, nothing else', () => {
    expect(DeviceForm.safeParse(form('4210209006', 'h02')).success).toBe(true);
    expect(DeviceForm.safeParse(form('353505221264507', 'h02')).success).toBe(true);
    expect(idError(DeviceForm.safeParse(form('421020900', 'h02')))).toBe(
      'H02の端末IDは10桁または15桁の数字で入力してください',
    );
  });
  it('takes a 12-digit (2013) or 20-digit (2019) JT/T 808 number', () => {
    expect(DeviceForm.safeParse(form('013511221122', 'jt808')).success).toBe(true);
    expect(DeviceForm.safeParse(form('00000356307042441013', 'jt808')).success).toBe(true);
    expect(idError(DeviceForm.safeParse(form('356307042441013', 'jt808')))).toBe(
      'JT/T 808の端末ID（端末の電話番号）は12桁または20桁の数字で入力してください',
    );
  });
  it('reports the id beside other fields’ errors', () => {
    const r = DeviceForm.safeParse({ ...form('12345'), password: 'short' });
    expect(idError(r)).toBe('IMEIは15桁の数字で入力してください');
    expect(r.error?.issues.some((i) => i.path[0] === 'password')).toBe(true);
  });
  it('names an existing terminal of any protocol in a delete', () => {
    for (const id of ['4210209006', '013511221122', '356307042441013'])
      expect(DeviceDeleteRequest.safeParse({ car_device_id: 'd', car_data_id: id, isDelete: 1 }).success).toBe(true);
  });
});
