import ExcelJS from 'exceljs';
import { PDFParse } from 'pdf-parse';
import {
  REPORT_EXPORT_PATH,
  dailyTimelineColumns,
  dailyTripColumns,
  groupAdd,
  groupCarsAdd,
  groupDelete,
  summaryColumns,
  tripLabels,
  tripMessages,
  validationMessages,
  type ReportExportQuery,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInApp, fleet, type FixtureAccount, type SignedInApp } from './helper.js';
import { CAR_A_NUMBER, DAY, seedReportDay } from './report-support.js';

let t: SignedInApp;

beforeAll(async () => {
  t = await createSignedInApp(['superAdmin', 'adminA', 'managerA', 'staffA', 'adminB']);
  await seedReportDay(t);
});
afterAll(() => t?.close());

const exportAs = (who: FixtureAccount | undefined, body: ReportExportQuery | Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: REPORT_EXPORT_PATH,
    payload: body,
    headers: who ? { authorization: `Bearer ${t.tokens[who]}` } : {},
  });
const daily = (format: 'xlsx' | 'pdf' | 'csv', extra: Record<string, unknown> = {}) => ({
  kind: 'daily',
  format,
  car_data_id: fleet.A.car_data_id,
  date: DAY,
  ...extra,
});
const summary = (format: 'xlsx' | 'pdf' | 'csv', extra: Record<string, unknown> = {}) => ({
  kind: 'summary',
  format,
  from: DAY,
  to: DAY,
  ...extra,
});

async function workbook(body: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  return wb;
}
const values = (ws: ExcelJS.Worksheet, row: number) => (ws.getRow(row).values as unknown[]).slice(1);
/** Excel keeps no zone: a time cell holds the wall clock in Japan. */
const wallClock = (d: unknown) => (d as Date).toISOString().slice(0, 19).replace('T', ' ');

async function pdfText(body: Buffer) {
  const parser = new PDFParse({ data: new Uint8Array(body) });
  try {
    return (await parser.getText({ first: 1 })).text;
  } finally {
    await parser.destroy();
  }
}

describe(`POST ${REPORT_EXPORT_PATH}: 運行日報`, () => {
  it('is a real workbook: Japanese headers, JST times as dates, numbers as numbers', async () => {
    const res = await exportAs('managerA', daily('xlsx'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="daily_report_${fleet.A.car_data_id}_${DAY}.xlsx"`,
    );
    const wb = await workbook(res.rawPayload);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['運行日報', '運行一覧', '停車一覧']);

    const info = wb.getWorksheet('運行日報')!;
    expect(values(info, 2)).toEqual(['車両番号', CAR_A_NUMBER]);
    expect(values(info, 4)).toEqual(['期間', '2026/11/20']);
    expect(values(info, 5)).toEqual(['走行距離 (km)', 17.3]);
    expect(values(info, 6)).toEqual(['運転時間 (分)', 50]);
    expect(values(info, 7)).toEqual(['運行回数', 2]);
    expect(values(info, 8)).toEqual(['停車回数', 2]);
    expect(values(info, 9)).toEqual(['最高速度 (km/h)', 62]);

    const trips = wb.getWorksheet('運行一覧')!;
    expect(values(trips, 1)).toEqual(dailyTripColumns.map((c) => c.header));
    const first = values(trips, 2);
    expect(wallClock(first[0])).toBe('2026-11-20 08:00:00');
    expect(wallClock(first[1])).toBe('2026-11-20 08:30:00');
    expect(first.slice(2)).toEqual(['東京都千代田区丸の内1丁目', '35.70000, 139.80000', 12.3, 30, 62, 25]);
    expect(trips.getCell('A2').numFmt).toBe('yyyy/mm/dd hh:mm:ss');
    expect(trips.rowCount).toBe(3);

    const stops = wb.getWorksheet('停車一覧')!;
    expect(values(stops, 2).slice(2)).toEqual(['東京都台東区上野7丁目', 210]);
    // Still stopped at the day's last position: no end, the time so far.
    expect(values(stops, 3).slice(1)).toEqual(['停車中', '35.71000, 139.81000', 340]);
  });

  it('is a printable A4 PDF with the Japanese font embedded', async () => {
    const res = await exportAs('staffA', daily('pdf'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const body = res.rawPayload;
    expect(body.subarray(0, 5).toString()).toBe('%PDF-');
    const raw = body.toString('latin1');
    expect(raw).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);
    expect(raw).toMatch(/\/FontFile3?\b/);
    expect(raw).toContain('NotoSansJP');
    const text = await pdfText(body);
    expect(text).toContain('運行日報');
    expect(text).toContain(CAR_A_NUMBER);
    expect(text).toContain('2026/11/20');
    expect(text).toContain('17.3 km');
    expect(text).toContain('東京都台東区上野7丁目');
  });

  it('is a CSV with the byte-order mark, trips and stops oldest first', async () => {
    const res = await exportAs('adminA', daily('csv'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('\uFEFF' + dailyTimelineColumns.map((c) => c.header).join(','));
    expect(lines.slice(1)).toEqual([
      '運行,2026/11/20 08:00:00,2026/11/20 08:30:00,東京都千代田区丸の内1丁目,"35.70000, 139.80000",12.3,30,62',
      '停車,2026/11/20 08:30:00,2026/11/20 12:00:00,東京都台東区上野7丁目,,,210,',
      '運行,2026/11/20 12:00:00,2026/11/20 12:20:00,"35.68000, 139.76000","35.70000, 139.80000",5,20,48',
      '停車,2026/11/20 12:20:00,停車中,"35.71000, 139.81000",,,340,',
      '',
    ]);
  });

  it('says so for a day without trips', async () => {
    const res = await exportAs('managerA', daily('pdf', { date: '2026-11-22' }));
    expect(res.statusCode).toBe(200);
    expect(await pdfText(res.rawPayload)).toContain(tripLabels.noTrips);
  });
});

describe(`POST ${REPORT_EXPORT_PATH}: 車両別集計`, () => {
  it('sums the company vehicles in a workbook, with the total row', async () => {
    const res = await exportAs('managerA', summary('xlsx'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="fleet_summary_${DAY}_${DAY}.xlsx"`);
    const wb = await workbook(res.rawPayload);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['車両別集計', '概要']);
    const ws = wb.getWorksheet('車両別集計')!;
    expect(values(ws, 1)).toEqual(summaryColumns.map((c) => c.header));
    expect(values(ws, 2)).toEqual([CAR_A_NUMBER, fleet.A.car_data_id, 17.3, 0.83, 2, 2, 62]);
    expect(values(ws, 3)).toEqual(['合計', undefined, 17.3, 0.83, 2]);
    expect(ws.rowCount).toBe(3);
  });

  it("shows another company nothing of company A's vehicles", async () => {
    const res = await exportAs('adminB', summary('csv'));
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(fleet.A.car_data_id);
    expect(res.body.split('\r\n')[1]).toMatch(new RegExp(`,${fleet.B.car_data_id},0,0,0,0,0$`));
  });

  it('narrows the summary to a vehicle group, as the screen does', async () => {
    const group_id = (await t.call(groupAdd, { info: { name: '出力用' } }, 'adminA')).body.group_id;
    const empty = await exportAs('adminA', summary('csv', { group_id }));
    expect(empty.statusCode).toBe(200);
    expect(empty.body).not.toContain(fleet.A.car_data_id);
    await t.call(groupCarsAdd, { group_id, car_ids: [fleet.A.car_id] }, 'adminA');
    const one = await exportAs('adminA', summary('csv', { group_id }));
    expect(one.body).toContain(fleet.A.car_data_id);
    await t.call(groupDelete, { group_id }, 'adminA');
  });

  it('lets the super admin pick a company, and prints the summary as a PDF', async () => {
    const onlyB = await exportAs('superAdmin', summary('csv', { company_id: fleet.B.company_id }));
    expect(onlyB.statusCode).toBe(200);
    expect(onlyB.body).not.toContain(fleet.A.car_data_id);
    const pdf = await exportAs('superAdmin', summary('pdf'));
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('車両別集計');
    expect(text).toContain('すべての会社');
    expect(text).toContain(CAR_A_NUMBER);
  });
});

describe(`POST ${REPORT_EXPORT_PATH}: refusals`, () => {
  const refused = async (who: FixtureAccount | undefined, body: Record<string, unknown>, status = 400) => {
    const res = await exportAs(who, body);
    expect(res.statusCode).toBe(status);
    return res.json<{ message: string; errors?: Record<string, string> }>();
  };

  it('refuses a year-long daily report, a range the wrong way round and a bad day, in Japanese', async () => {
    const long = await refused('managerA', daily('xlsx', { date: undefined, from: '2026-01-01', to: '2026-12-31' }));
    expect(long.errors).toEqual({ to: tripMessages.tripsRangeTooLong });
    const backwards = await refused('managerA', summary('csv', { from: '2026-11-21', to: '2026-11-20' }));
    expect(backwards.errors).toEqual({ from: tripMessages.rangeOrder });
    const day = await refused('managerA', daily('csv', { date: '2026-02-30' }));
    expect(day.errors).toEqual({ date: tripMessages.day });
    const missing = await refused('managerA', { kind: 'daily', format: 'xlsx' });
    expect(missing.errors).toEqual({ car_data_id: validationMessages.required, date: validationMessages.required });
    const format = await refused('managerA', daily('docx' as never));
    expect(Object.keys(format.errors ?? {})).toEqual(['format']);
  });

  it("answers an unknown terminal and another company's terminal alike", async () => {
    const unknown = await refused('managerA', daily('xlsx', { car_data_id: '999999999999999' }));
    expect(unknown.errors).toEqual({ car_data_id: tripMessages.unknownTerminal });
    const other = await refused('adminB', daily('pdf'));
    expect(other).toEqual(unknown);
  });

  it('needs a session', async () => {
    await refused(undefined, daily('xlsx'), 401);
  });

  it('lets a daily report cover several days up to the limit', async () => {
    const res = await exportAs('managerA', daily('csv', { date: undefined, from: '2026-11-19', to: '2026-11-21' }));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(`_2026-11-19_2026-11-21.csv`);
    expect(res.body.split('\r\n')).toHaveLength(6);
  });
});
