import { DeviceForm } from '@fleet/contract';
import { describe, expect, it } from 'vitest';
import { ApiClientError } from '../../lib/api-client';
import { imeiConflict } from './device-form';
import { generateTerminalSecret } from './terminal-secret';

describe('generateTerminalSecret', () => {
  it('makes a 16-character secret the terminal form accepts, different each time', () => {
    const a = generateTerminalSecret();
    expect(a).toMatch(/^[A-HJ-NP-Za-km-z2-9]{16}$/);
    expect(DeviceForm.shape.password.safeParse(a).success).toBe(true);
    expect(new Set(Array.from({ length: 50 }, () => generateTerminalSecret())).size).toBe(50);
  });
});

describe('imeiConflict', () => {
  it("puts a bare 'already registered' 409 under the IMEI field (docs/product.md §8)", () => {
    const e = imeiConflict(new ApiClientError(409, 'CONFLICT', 'already registered')) as ApiClientError;
    expect(e.errors).toEqual({ car_data_id: '入力されたIMEIは既に使用されています。' });
  });
  it('leaves other errors alone', () => {
    const other = new ApiClientError(409, 'CONFLICT', '入力された端末IDは既に使用されています。', {
      car_device_id: 'x',
    });
    expect(imeiConflict(other)).toBe(other);
    const server = new ApiClientError(500, 'INTERNAL', 'x');
    expect(imeiConflict(server)).toBe(server);
  });
});
