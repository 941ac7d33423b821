import { describe, expect, it } from 'vitest';
import { logOptions, redactUrl } from './log-options.js';

describe('redactUrl', () => {
  it.each([
    ['/password_reset?token=abc123', '/password_reset?token=[REDACTED]'],
    ['/password_reset?lang=ja&token=abc&x=1', '/password_reset?lang=ja&token=[REDACTED]&x=1'],
    ['/api/live?ticket=t0k', '/api/live?ticket=[REDACTED]'],
    ['/x?access_token=a&Password=b&otp=1', '/x?access_token=[REDACTED]&Password=[REDACTED]&otp=[REDACTED]'],
    ['/api/car_list', '/api/car_list'],
    ['/x?page=2&sort=name', '/x?page=2&sort=name'],
    ['/device/v1/batch', '/device/v1/batch'],
    ['/device/osmand/s3cret', '/device/osmand/[REDACTED]'],
    ['/device/osmand/s3cret/?id=1&lat=2', '/device/osmand/[REDACTED]?id=1&lat=2'],
    ['//device//OsmAnd/s3cret/x', '/device/osmand/[REDACTED]'],
    ['/device/%6fsmand/s3cret', '/device/osmand/[REDACTED]'],
    ['/device/./osmand/s3cret', '/device/osmand/[REDACTED]'],
    ['/device/s3cret', '/device/[REDACTED]'],
    ['/device/v1/batch/s3cret', '/device/[REDACTED]'],
    ['/s3cret?id=358409100000001', '/[REDACTED]?id=358409100000001'],
    ['/s3cret/?deviceid=1&password=p', '/[REDACTED]?deviceid=1&password=[REDACTED]'],
    ['/?id=358409100000001', '/?id=358409100000001'],
  ])('%s → %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});

describe('logOptions format', () => {
  it('pretty: lines through pino-pretty (development); json: plain JSON lines (production); a test stream is never prettified', () => {
    const pretty = logOptions('info', undefined, 'pretty') as { transport?: { target: string } };
    expect(pretty.transport?.target).toBe('pino-pretty');
    expect((logOptions('info', undefined, 'json') as { transport?: unknown }).transport).toBeUndefined();
    expect(
      (logOptions('info', { write: () => undefined }, 'pretty') as { transport?: unknown }).transport,
    ).toBeUndefined();
  });
});
