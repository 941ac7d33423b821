import { errorMessages, login as loginCall, sessionCarId, validationMessages } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, createTestApp, login, seedFixtures, unchecked, type TestApp } from './helper.js';

/** Bad input is a 4xx with the one error shape and Japanese text: never a 500. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
});
afterAll(() => t?.close());

const japanese = /[\u3040-\u30ff\u4e00-\u9fff]/;
const huge = 'あ'.repeat(10_000);

describe(`${loginCall.path} input`, () => {
  it.each([
    ['missing fields', {}, { username: validationMessages.required, password: validationMessages.required }],
    [
      'empty strings',
      { username: '', password: '' },
      { username: validationMessages.required, password: validationMessages.required },
    ],
    [
      'wrong types',
      { username: 123, password: ['x'] },
      { username: validationMessages.required, password: validationMessages.required },
    ],
    [
      '10 kB strings',
      { username: huge, password: huge },
      { username: validationMessages.tooLong, password: validationMessages.tooLong },
    ],
  ])('answers %s with 400 and per-field errors', async (_label, payload, errors) => {
    const res = await callAs(t.app, undefined, loginCall, unchecked(payload));
    expect(res.status).toBe(400);
    expect(res.raw.json()).toEqual({ code: 'BAD_REQUEST', message: errorMessages.badRequest, errors });
    expect(res.error.message).toMatch(japanese);
  });

  it.each([
    ['a JSON array', '[]'],
    ['a JSON string', '"admin-a"'],
    ['JSON null', 'null'],
  ])('answers %s as the body with 400', async (_label, payload) => {
    const res = await t.app.inject({
      method: 'POST',
      url: loginCall.path,
      payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BAD_REQUEST', message: errorMessages.badRequest });
  });

  it('answers malformed JSON with 400 and the error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: loginCall.path,
      payload: '{"username": "admin-a",',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'BAD_REQUEST', message: expect.stringMatching(japanese) });
  });

  it('answers a body that is not JSON with 415 and the error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: loginCall.path,
      payload: 'username=admin-a&password=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ code: 'BAD_REQUEST', message: expect.stringMatching(japanese) });
  });

  it('answers a body over the 1 MB limit with 413 and the error shape', async () => {
    const res = await callAs(t.app, undefined, loginCall, {
      username: 'admin-a',
      password: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(res.status).toBe(413);
    expect(res.raw.json()).toEqual({ code: 'BAD_REQUEST', message: expect.stringMatching(japanese) });
  });

  it('answers an empty JSON body with 400 and the error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: loginCall.path,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'BAD_REQUEST', message: expect.stringMatching(japanese) });
  });
});

describe('signed-in call input', () => {
  it('checks the token first, then the body, field by field', async () => {
    expect((await callAs(t.app, undefined, sessionCarId, { car_id: 'bad id!' })).status).toBe(401);
    const token = await login(t.app, 'adminA');
    const res = await callAs(t.app, token, sessionCarId, { car_id: 'bad id!' });
    expect(res.status).toBe(400);
    expect(res.raw.json()).toEqual({
      code: 'BAD_REQUEST',
      message: errorMessages.badRequest,
      errors: { car_id: validationMessages.invalid },
    });
  });
});
