import { describe, expect, it } from 'vitest';
import { exportFileStamp, exportTime, logExportHeader, logExportRow } from './log-export.js';

describe('the CSV export wording', () => {
  it('writes Japan time as YYYY/MM/DD HH:mm:ss and file stamps as YYYYMMDDHHmm', () => {
    expect(exportTime(new Date('2026-11-24T22:49:07.999Z'))).toBe('2026/11/25 07:49:07');
    expect(exportFileStamp(new Date('2026-11-24T22:49:07Z'))).toBe('202611250749');
  });
  it('has Japanese headers and labels the stored values as the screen does', () => {
    expect(logExportHeader('connection')).toEqual(['日時', '接続状態']);
    expect(logExportRow('connection', { recorded_at: new Date('2026-01-01T00:00:00Z'), state: 'connected' })).toEqual([
      '2026/01/01 09:00:00',
      '接続',
    ]);
    expect(logExportRow('connection', { recorded_at: '2026-01-01T00:00:00Z', state: 'lost' })[1]).toBe('切断');
    expect(
      logExportRow('engine', {
        recorded_at: '2026-01-01T00:00:00Z',
        running: 'on',
        engine_line: 'disconnected',
        command: 1,
        command_id: 7,
        account_id: 'a',
      }),
    ).toEqual(['2026/01/01 09:00:00', 'ON', '禁止中', 'エンジン始動禁止', 7, 'a']);
  });
  it('gives the known OBD2 keys columns and writes the rest as JSON, nothing when there is no rest', () => {
    expect(logExportHeader('obd2')[1]).toBe('エンジン回転数 (rpm)');
    expect(logExportRow('obd2', { recorded_at: '2026-01-01T00:00:00Z', pids: { rpm: 900, maf: 3.5 } })).toEqual([
      '2026/01/01 09:00:00',
      900,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      { maf: 3.5 },
    ]);
    expect(logExportRow('obd2', { recorded_at: '2026-01-01T00:00:00Z', pids: { rpm: 900 } }).at(-1)).toBeNull();
  });
});
