import { describe, expect, it } from 'vitest';
import {
  AccountNotifyUpdateRequest,
  defaultNotifySettings,
  fieldErrors,
  NotifySettings,
  NotifySettingsForm,
  notifyItemKeys,
  notifyItemList,
  notifyItems,
  notifyMessages,
  PasswordResetByTokenRequest,
  validationMessages as m,
} from './index.js';

const allOff = Object.fromEntries(notifyItemKeys.map((k) => [k, { enable: false, param: null }]));

describe('notification items', () => {
  it('are the eight items of the spec, each with a Japanese label and description', () => {
    expect(notifyItemList.map((i) => i.key)).toEqual([
      'sensor_error',
      'device_lost',
      'car_negrected',
      'obd2_error',
      'vibration',
      'stop_time_over',
      'warn_area',
      'connect_error',
      'terminal_duplicate',
      'terminal_new_address',
    ]);
    for (const item of notifyItemList) {
      expect(item.label).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
      expect(item.description.length).toBeGreaterThan(5);
      if (item.param) expect(item.param.default).toBeGreaterThanOrEqual(item.param.min);
    }
  });
  it('give the time-based items a parameter with a unit and range', () => {
    expect(notifyItems.device_lost.param).toMatchObject({ unit: '分', min: 5, max: 10080 });
    expect(notifyItems.car_negrected.param).toMatchObject({ unit: '日', min: 1, max: 365 });
    expect(notifyItems.stop_time_over.param).toMatchObject({ unit: '分', min: 1, max: 1440 });
    expect(notifyItems.vibration.param).toMatchObject({ unit: 'G', integer: false });
    expect(notifyItems.warn_area.param).toBeNull();
  });
  it('default to everything off with the default params, which the response schema accepts', () => {
    const d = defaultNotifySettings();
    expect(NotifySettings.parse(d)).toEqual(d);
    expect(d.device_lost).toEqual({ enable: false, param: 60 });
    expect(d.sensor_error).toEqual({ enable: false, param: null });
  });
});

describe('NotifySettingsForm', () => {
  it('accepts a full form, numbers as strings, and drops the param of items that have none', () => {
    const v = NotifySettingsForm.parse({
      ...allOff,
      email: ' notify@example.jp ',
      messageId: 'line-1',
      device_lost: { enable: true, param: '30' },
      vibration: { enable: 1, param: 2.5 },
      warn_area: { enable: '1', param: 99 },
    });
    expect(v.email).toBe('notify@example.jp');
    expect(v.device_lost).toEqual({ enable: true, param: 30 });
    expect(v.vibration).toEqual({ enable: true, param: 2.5 });
    expect(v.warn_area).toEqual({ enable: true, param: null });
  });
  it('accepts a blank email and missing items (off)', () => {
    const v = NotifySettingsForm.parse({ email: '' });
    expect(v.email).toBe('');
    expect(v.car_negrected).toEqual({ enable: false, param: null });
  });
  it('answers out-of-range, non-integer, non-numeric and missing params in Japanese, per field', () => {
    const r = AccountNotifyUpdateRequest.safeParse({
      account_id: 'acc-1',
      info: {
        email: 'not-an-address',
        device_lost: { enable: true, param: 4 },
        car_negrected: { enable: true, param: 1.5 },
        stop_time_over: { enable: true, param: 'abc' },
        vibration: { enable: true, param: null },
      },
    });
    expect(r.success).toBe(false);
    expect(fieldErrors(r.error!)).toEqual({
      'info.email': m.email,
      'info.device_lost.param': notifyMessages.range(5, 10080),
      'info.car_negrected.param': notifyMessages.integer,
      'info.stop_time_over.param': m.number,
      'info.vibration.param': m.required,
    });
  });
  it('lets a disabled item keep a blank param', () => {
    expect(NotifySettingsForm.parse({ device_lost: { enable: false, param: '' } }).device_lost).toEqual({
      enable: false,
      param: null,
    });
  });
});

describe('PasswordResetByTokenRequest', () => {
  it('checks length and confirmation with the spec messages', () => {
    const short = PasswordResetByTokenRequest.safeParse({ token: 't', password: 'short', password_confirm: 'short' });
    expect(fieldErrors(short.error!)).toEqual({ password: m.min });
    const mismatch = PasswordResetByTokenRequest.safeParse({
      token: 't',
      password: 'long-enough-1',
      password_confirm: 'long-enough-2',
    });
    expect(fieldErrors(mismatch.error!)).toEqual({ password_confirm: 'パスワードが一致しません' });
  });
});
