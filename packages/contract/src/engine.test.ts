import { describe, expect, it } from 'vitest';
import { fieldErrors } from './errors.js';
import {
  CarEngineStateReserveRequest,
  CarReserveCmdRequest,
  COMMAND_EXPIRY_DEFAULT_MINUTES,
  commandSlots,
  engineMessages,
  executeAt,
  ReservationRequestForm,
} from './engine.js';
import { reservedCommandTypes } from './enums.js';

const errorsOf = (r: { success: boolean; error?: unknown }) => (r.success ? {} : fieldErrors(r.error as never));

describe('command slots', () => {
  it('gives each reserved command type its own cmd_idx, in the order of docs/product.md §4', () => {
    expect(reservedCommandTypes.map((t) => commandSlots[t])).toEqual([0, 1, 2]);
  });
});

describe('car_engine_state_reserve', () => {
  it('takes 0 permit or 1 prohibit and defaults the expiry to a day', () => {
    const r = CarEngineStateReserveRequest.parse({ car_data_id: '358409100000001', cmd_info: { cmd: 1 } });
    expect(r.cmd_info).toEqual({ cmd: 1, expires_in_minutes: COMMAND_EXPIRY_DEFAULT_MINUTES });
    expect(
      CarEngineStateReserveRequest.parse({ car_data_id: 'x1', cmd_info: { cmd: '0', expires_in_minutes: '30' } })
        .cmd_info,
    ).toEqual({
      cmd: 0,
      expires_in_minutes: 30,
    });
  });
  it('refuses other commands and expiries beyond seven days, in Japanese', () => {
    const r = CarEngineStateReserveRequest.safeParse({
      car_data_id: 'x1',
      cmd_info: { cmd: 2, expires_in_minutes: 7 * 1440 + 1 },
    });
    expect(errorsOf(r)).toEqual({
      'cmd_info.cmd': '選択肢から選んでください',
      'cmd_info.expires_in_minutes': engineMessages.expiresRange,
    });
    expect(errorsOf(CarEngineStateReserveRequest.safeParse({ car_data_id: 'x1' }))['cmd_info']).toBe('必須項目です');
  });
});

describe('car_reserve_cmd', () => {
  it('checks cmd_info by command type', () => {
    expect(CarReserveCmdRequest.parse({ car_data_id: 'x1', cmd_type: 'req_client_update' }).cmd_info).toEqual({});
    expect(
      CarReserveCmdRequest.safeParse({ car_data_id: 'x1', cmd_type: 'set_engine_boot_permission', cmd_info: {} })
        .success,
    ).toBe(false);
    expect(CarReserveCmdRequest.safeParse({ car_data_id: 'x1', cmd_type: 'reboot', cmd_info: {} }).success).toBe(false);
    const big = { settings: { blob: 'x'.repeat(5000) } };
    expect(
      errorsOf(
        CarReserveCmdRequest.safeParse({ car_data_id: 'x1', cmd_type: 'req_car_setting_update', cmd_info: big }),
      )['cmd_info.settings'],
    ).toBe(engineMessages.cmdInfoTooLarge);
  });
});

describe('execute_at of a reservation request', () => {
  const now = Date.parse('2026-11-23T00:00:00Z');
  const field = executeAt(() => now);
  it('reads ISO with a zone and YYYY/MM/DD HH:mm as Japan time', () => {
    expect(field.parse('2026-11-23T01:00:00Z')).toBe('2026-11-23T01:00:00.000Z');
    expect(field.parse('2026/11/23 10:15')).toBe('2026-11-23T01:15:00.000Z');
  });
  it('must be in the future and within the horizon', () => {
    expect(field.safeParse('2026-11-23T00:00:00Z').error?.issues[0]?.message).toBe(engineMessages.executeAtPast);
    expect(field.safeParse('2027-03-01T00:00:00Z').error?.issues[0]?.message).toBe(engineMessages.executeAtTooFar);
    expect(field.safeParse('tomorrow').error?.issues[0]?.message).toBe(engineMessages.executeAtFormat);
  });
  it('keys errors by field in the request form', () => {
    const r = ReservationRequestForm.safeParse({ car_id: 'car-a', cmd: 5, execute_at: '2000-01-01T00:00:00Z' });
    expect(errorsOf(r)).toEqual({ cmd: '選択肢から選んでください', execute_at: engineMessages.executeAtPast });
  });
});
