import { describe, expect, it } from 'vitest';
import {
  AccountEditForm,
  AccountForm,
  CarForm,
  CarUserDeviceAddRequest,
  CarUserForm,
  CompanyForm,
  DeviceEditForm,
  DeviceForm,
  fieldErrors,
  fieldMessages as f,
  validationMessages as m,
} from './index.js';
import type { z } from 'zod';

const errorsOf = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? {} : fieldErrors(r.error);
};

const account = {
  account_id: 'acc-0001',
  name: '山田 太郎',
  email: 'yamada@example.jp',
  role: '1',
  company_id: '',
  password: 'pass-word-1',
  password_confirm: 'pass-word-1',
};

describe('AccountForm', () => {
  it('accepts a select box role as a string and an empty company as null', () => {
    expect(AccountForm.parse(account)).toMatchObject({ role: 1, company_id: null });
  });
  it('words every field error in Japanese (docs/product.md §5)', () => {
    expect(
      errorsOf(AccountForm, { ...account, name: '', email: 'x@', password: 'short', password_confirm: 'other' }),
    ).toEqual({
      name: m.required,
      email: m.email,
      password: m.min,
      password_confirm: m.confirmed,
    });
    expect(errorsOf(AccountForm, { ...account, password: 'x'.repeat(33), password_confirm: 'x'.repeat(33) })).toEqual({
      password: m.max,
    });
  });
  it('keeps the password on edit when it is left empty', () => {
    const { password: _p, password_confirm: _c, ...rest } = account;
    expect(AccountEditForm.parse(rest)).toMatchObject({ password: '', password_confirm: '' });
    expect(errorsOf(AccountEditForm, { ...rest, password: 'short', password_confirm: 'short' })).toEqual({
      password: m.min,
    });
  });
});

describe('CarUserForm', () => {
  const user = { user_id: 'user-0001', first_name: '山田', name: '太郎' };
  it('defaults payment_log and state to 0, birthday and gender to null', () => {
    expect(CarUserForm.parse(user)).toMatchObject({
      payment_log: 0,
      state: 0,
      birthday: null,
      gender: null,
      company_id: null,
    });
  });
  it('checks the birthday is a real date and a plausible age', () => {
    expect(CarUserForm.parse({ ...user, birthday: '1988-02-29' }).birthday).toBe('1988-02-29');
    expect(errorsOf(CarUserForm, { ...user, birthday: '1989-02-29' })).toEqual({ birthday: m.date });
    expect(errorsOf(CarUserForm, { ...user, birthday: '1850-01-01' })).toEqual({ birthday: m.minValue });
    expect(errorsOf(CarUserForm, { ...user, birthday: '2999-01-01' })).toEqual({ birthday: m.maxValue });
  });
  it('limits the codes to their ranges', () => {
    expect(errorsOf(CarUserForm, { ...user, gender: 3, state: 4, payment_log: '-1' })).toEqual({
      gender: f.choice,
      state: f.choice,
      payment_log: f.choice,
    });
  });
});

describe('DeviceForm', () => {
  const device = { car_device_id: 'dev-0001', password: 'terminal-1', car_data_id: '358409100000009' };
  it('requires a 15-digit IMEI and checks addresses only when given', () => {
    expect(DeviceForm.parse({ ...device, ipaddr: '', macaddr: '' })).toMatchObject({ ipaddr: '', macaddr: '' });
    expect(DeviceForm.parse({ ...device, ipaddr: '2001:db8::1', macaddr: '02-1A-7F-00-00-01' }).ipaddr).toBe(
      '2001:db8::1',
    );
    expect(
      errorsOf(DeviceForm, { ...device, car_data_id: '35840910000000', ipaddr: '10.0.0.256', macaddr: 'zz' }),
    ).toEqual({
      car_data_id: f.imei,
      ipaddr: f.ipaddr,
      macaddr: f.macaddr,
    });
  });
  it('needs the terminal password on add, not on edit', () => {
    expect(errorsOf(DeviceForm, { ...device, password: '' })).toEqual({ password: m.required });
    expect(DeviceEditForm.parse({ ...device, password: '' }).password).toBe('');
  });
});

describe('CarForm', () => {
  const car = { car_id: 'C000001', car_number: '品川 300 あ 12-34', user_id: 'user-0001' };
  it('takes the available area as all four bounds or none', () => {
    expect(CarForm.parse(car)).toMatchObject({ car_device_id: null, available_data: null });
    const blank = { lat_min: '', lat_max: '', lng_min: '', lng_max: '' };
    expect(CarForm.parse({ ...car, available_data: blank }).available_data).toBeNull();
    const area = { lat_min: '35.5', lat_max: 35.8, lng_min: 139.5, lng_max: 139.9 };
    expect(CarForm.parse({ ...car, available_data: area }).available_data).toEqual({
      lat_min: 35.5,
      lat_max: 35.8,
      lng_min: 139.5,
      lng_max: 139.9,
    });
  });
  it('refuses partial, inverted and out-of-range areas per field', () => {
    expect(
      errorsOf(CarForm, { ...car, available_data: { lat_min: 36, lat_max: 35, lng_min: 200, lng_max: '' } }),
    ).toEqual({
      'available_data.lat_max': f.minBelowMax,
      'available_data.lng_min': f.longitude,
      'available_data.lng_max': m.required,
    });
  });
});

describe('CompanyForm and the wizard', () => {
  it('needs only the id and name of a company', () => {
    expect(errorsOf(CompanyForm, { company_id: 'co-1', company_name: '', email: 'bad', phone: 'abc' })).toEqual({
      company_name: m.required,
      email: m.email,
      phone: f.phone,
    });
  });
  it('keys wizard errors by part', () => {
    expect(errorsOf(CarUserDeviceAddRequest, { user: {}, device: {}, car: {} })).toMatchObject({
      'user.user_id': m.required,
      'device.car_data_id': m.required,
      'car.car_number': m.required,
    });
  });
});
