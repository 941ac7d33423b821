import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  CSV_BOM,
  csvRow,
  dailyStopColumns,
  dailyTimelineColumns,
  dailyTotals,
  dailyTripColumns,
  exportTime,
  placeOf,
  reportLabels,
  summaryColumns,
  tripLabels,
  type FleetSummaryResponse,
  type ReportColumn,
  type Stop,
  type Trip,
} from '@fleet/contract';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';

/** One vehicle's trips and stops over JST days `from`-`to` (one day for a 運行日報), as the calls answer them. */
export interface DailyReportData {
  car_number: string;
  car_data_id: string;
  from: string;
  to: string;
  trips: Trip[];
  stops: Stop[];
}

/** The fleet summary over JST days `from`-`to`; `company` names the company it covers (null: every company). */
export interface SummaryReportData extends FleetSummaryResponse {
  from: string;
  to: string;
  company: string | null;
}

export interface ReportFile {
  body: Buffer;
  contentType: string;
  extension: string;
}

type Row = Record<string, unknown>;

const MINUTE = 60;
const period = (from: string, to: string) =>
  from === to ? from.replaceAll('-', '/') : `${from.replaceAll('-', '/')}〜${to.replaceAll('-', '/')}`;
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

// Rows: the numbers each format writes, from the calls' answers -----------------------------------

const tripRow = (t: Trip): Row => ({
  kind: tripLabels.trip,
  start_at: t.start_at,
  end_at: t.end_at,
  start_address: placeOf(t.start_address, t.start_lat, t.start_lng),
  end_address: placeOf(t.end_address, t.end_lat, t.end_lng),
  place: placeOf(t.start_address, t.start_lat, t.start_lng),
  end_place: placeOf(t.end_address, t.end_lat, t.end_lng),
  distance_km: round(t.distance_m / 1000, 1),
  duration_min: Math.round(t.duration_s / MINUTE),
  max_speed_kmh: Math.round(t.max_speed_kmh),
  avg_speed_kmh: Math.round(t.avg_speed_kmh),
});

const stopRow = (s: Stop): Row => ({
  kind: tripLabels.stop,
  start_at: s.start_at,
  end_at: s.end_at ?? tripLabels.stillStopped,
  address: placeOf(s.address, s.lat, s.lng),
  place: placeOf(s.address, s.lat, s.lng),
  end_place: null,
  distance_km: null,
  duration_min: Math.round(s.duration_s / MINUTE),
  max_speed_kmh: null,
});

/** Trips and stops in one list, oldest first (a stop before the trip that leaves it). */
const timeline = (d: DailyReportData): Row[] =>
  [...d.trips.map(tripRow), ...d.stops.map(stopRow)].sort(
    (a, b) => Date.parse(a.start_at as string) - Date.parse(b.start_at as string),
  );

const summaryRow = (r: FleetSummaryResponse['rows'][number]): Row => ({
  car_number: r.car_number,
  car_data_id: r.car_data_id ?? '',
  distance_km: round(r.distance_m / 1000, 1),
  driving_h: round(r.driving_s / 3600, 2),
  trips: r.trips,
  stops: r.stops,
  max_speed_kmh: Math.round(r.max_speed_kmh),
});

const isInstant = (key: string, v: unknown): v is string =>
  (key === 'start_at' || key === 'end_at') && typeof v === 'string' && !Number.isNaN(Date.parse(v));

// CSV --------------------------------------------------------------------------------------------

function toCsv(columns: readonly ReportColumn[], rows: Row[]): string {
  const cell = (c: ReportColumn, r: Row) => (isInstant(c.key, r[c.key]) ? exportTime(r[c.key] as string) : r[c.key]);
  return (
    CSV_BOM + csvRow(columns.map((c) => c.header)) + rows.map((r) => csvRow(columns.map((c) => cell(c, r)))).join('')
  );
}

export const dailyCsv = (d: DailyReportData): ReportFile => ({
  body: Buffer.from(toCsv(dailyTimelineColumns, timeline(d))),
  contentType: 'text/csv; charset=utf-8',
  extension: 'csv',
});

export const summaryCsv = (d: SummaryReportData): ReportFile => ({
  body: Buffer.from(toCsv(summaryColumns, d.rows.map(summaryRow))),
  contentType: 'text/csv; charset=utf-8',
  extension: 'csv',
});

// Excel ------------------------------------------------------------------------------------------

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const TIME_FORMAT = 'yyyy/mm/dd hh:mm:ss';

/** Excel has no time zones: a time is written as the wall clock in Japan, formatted as a date. */
const jstCell = (iso: string) => new Date(Date.parse(iso) + 9 * 3600_000);

function tableSheet(wb: ExcelJS.Workbook, name: string, columns: readonly ReportColumn[], rows: Row[]) {
  const ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns.map((c) => ({
    key: c.key,
    header: c.header,
    width: c.width ?? 14,
    style: c.numFmt ? { numFmt: c.numFmt } : isInstantColumn(c) ? { numFmt: TIME_FORMAT } : {},
  }));
  ws.getRow(1).font = { bold: true };
  for (const r of rows) {
    ws.addRow(
      Object.fromEntries(
        columns.map((c) => [c.key, isInstant(c.key, r[c.key]) ? jstCell(r[c.key] as string) : r[c.key]]),
      ),
    );
  }
  return ws;
}
const isInstantColumn = (c: ReportColumn) => c.key === 'start_at' || c.key === 'end_at';

function infoSheet(wb: ExcelJS.Workbook, name: string, title: string, lines: [string, string | number][]) {
  const ws = wb.addWorksheet(name);
  ws.columns = [{ width: 18 }, { width: 36 }];
  ws.addRow([title]).font = { bold: true, size: 14 };
  for (const line of lines) ws.addRow(line);
  ws.getColumn(1).font = { bold: true };
  return ws;
}

async function workbookFile(wb: ExcelJS.Workbook): Promise<ReportFile> {
  return { body: Buffer.from(await wb.xlsx.writeBuffer()), contentType: XLSX_TYPE, extension: 'xlsx' };
}

const newWorkbook = () => {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'フリートコンソール';
  wb.created = new Date();
  return wb;
};

export async function dailyXlsx(d: DailyReportData, now = new Date()): Promise<ReportFile> {
  const wb = newWorkbook();
  const totals = dailyTotals(d.trips, d.stops);
  const info = infoSheet(wb, tripLabels.dailyReport, tripLabels.dailyReport, [
    [tripLabels.car_number, d.car_number],
    [tripLabels.car_data_id, d.car_data_id],
    [reportLabels.period, period(d.from, d.to)],
    [`${tripLabels.distance_m} (km)`, round(totals.distance_m / 1000, 1)],
    [`${tripLabels.driving_s} (分)`, Math.round(totals.driving_s / MINUTE)],
    [tripLabels.trip_count, totals.trips],
    [tripLabels.stop_count, totals.stops],
    [`${tripLabels.max_speed_kmh} (km/h)`, Math.round(totals.max_speed_kmh)],
    [reportLabels.createdAt, exportTime(now)],
  ]);
  info.getCell('B5').numFmt = '0.0';
  tableSheet(wb, reportLabels.tripsSheet, dailyTripColumns, d.trips.map(tripRow));
  tableSheet(wb, reportLabels.stopsSheet, dailyStopColumns, d.stops.map(stopRow));
  return workbookFile(wb);
}

export async function summaryXlsx(d: SummaryReportData, now = new Date()): Promise<ReportFile> {
  const wb = newWorkbook();
  const ws = tableSheet(wb, reportLabels.summarySheet, summaryColumns, d.rows.map(summaryRow));
  const total = ws.addRow({
    car_number: tripLabels.total,
    distance_km: round(d.total.distance_m / 1000, 1),
    driving_h: round(d.total.driving_s / 3600, 2),
    trips: d.total.trips,
  });
  total.font = { bold: true };
  infoSheet(wb, reportLabels.infoSheet, tripLabels.fleetSummary, [
    [reportLabels.period, period(d.from, d.to)],
    [tripLabels.company, d.company ?? reportLabels.allCompanies],
    [reportLabels.vehicle, d.rows.length],
    [reportLabels.createdAt, exportTime(now)],
  ]);
  return workbookFile(wb);
}

// PDF --------------------------------------------------------------------------------------------

/**
 * Noto Sans JP (SIL Open Font License) from its npm package, read once: pdfkit embeds only the glyphs a
 * document uses, so a page of a report weighs tens of kilobytes, not the font's 4.5 MB.
 */
const fontDir = join(dirname(createRequire(import.meta.url).resolve('@embedpdf/fonts-jp')), '..', 'fonts');
let fonts: { regular: Buffer; bold: Buffer } | undefined;
const loadFonts = () =>
  (fonts ??= {
    regular: readFileSync(join(fontDir, 'NotoSansJP-Regular.otf')),
    bold: readFileSync(join(fontDir, 'NotoSansJP-Bold.otf')),
  });

interface PdfColumn {
  key: string;
  header: string;
  width: number;
  align?: 'left' | 'right';
}

const MARGIN = 40;
const FONT_SIZE = 8;
const ROW_PAD = 3;

function pdfDocument(title: string) {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: title, Creator: 'フリートコンソール' } });
  const f = loadFonts();
  doc.registerFont('jp', f.regular);
  doc.registerFont('jp-bold', f.bold);
  doc.font('jp');
  return doc;
}

const finish = (doc: PDFKit.PDFDocument) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });

/** A table with its header repeated on every page; rows as far as the page allows, wrapped text included. */
function pdfTable(doc: PDFKit.PDFDocument, columns: PdfColumn[], rows: Row[], text: (c: PdfColumn, r: Row) => string) {
  const left = MARGIN;
  const bottom = doc.page.height - MARGIN;
  const heightOf = (cells: string[], font: string) => {
    doc.font(font).fontSize(FONT_SIZE);
    return Math.max(...cells.map((t, i) => doc.heightOfString(t, { width: columns[i]!.width - 4 }))) + ROW_PAD * 2;
  };
  const draw = (cells: string[], font: string, fill?: string) => {
    const h = heightOf(cells, font);
    if (doc.y + h > bottom) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    if (fill)
      doc
        .rect(
          left,
          y,
          columns.reduce((n, c) => n + c.width, 0),
          h,
        )
        .fill(fill);
    doc.fillColor('black').font(font).fontSize(FONT_SIZE);
    let x = left;
    cells.forEach((t, i) => {
      const c = columns[i]!;
      doc.text(t, x + 2, y + ROW_PAD, { width: c.width - 4, align: c.align ?? 'left' });
      x += c.width;
    });
    doc
      .moveTo(left, y + h)
      .lineTo(x, y + h)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke();
    doc.x = left;
    doc.y = y + h;
  };
  const header = () =>
    draw(
      columns.map((c) => c.header),
      'jp-bold',
      '#e7eef9',
    );
  header();
  for (const r of rows)
    draw(
      columns.map((c) => text(c, r)),
      'jp',
    );
}

/** Big labelled figures under the title: the day's totals. */
function figures(doc: PDFKit.PDFDocument, items: [string, string][]) {
  const width = (doc.page.width - MARGIN * 2) / items.length;
  const y = doc.y;
  items.forEach(([label, value], i) => {
    const x = MARGIN + i * width;
    doc
      .rect(x + 2, y, width - 4, 40)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke();
    doc
      .font('jp')
      .fontSize(8)
      .fillColor('#555555')
      .text(label, x + 8, y + 5, { width: width - 16 });
    doc
      .font('jp-bold')
      .fontSize(13)
      .fillColor('black')
      .text(value, x + 8, y + 18, { width: width - 16 });
  });
  doc.x = MARGIN;
  doc.y = y + 52;
}

function heading(doc: PDFKit.PDFDocument, title: string, lines: string[], now: Date) {
  doc.font('jp-bold').fontSize(18).text(title, MARGIN, MARGIN);
  doc
    .font('jp')
    .fontSize(8)
    .fillColor('#555555')
    .text(`${reportLabels.createdAt}: ${exportTime(now)}`, MARGIN, MARGIN + 6, { align: 'right' });
  doc
    .fillColor('black')
    .fontSize(11)
    .text(lines.join('　　'), MARGIN, MARGIN + 30);
  doc.moveDown(0.8);
}

const shortTime = (v: unknown) =>
  typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? exportTime(v).slice(5, 16) : String(v ?? '');

export async function dailyPdf(d: DailyReportData, now = new Date()): Promise<ReportFile> {
  const doc = pdfDocument(`${tripLabels.dailyReport} ${d.car_number} ${period(d.from, d.to)}`);
  heading(
    doc,
    tripLabels.dailyReport,
    [
      `${tripLabels.car_number}: ${d.car_number}`,
      `${tripLabels.date}: ${period(d.from, d.to)}`,
      `${tripLabels.car_data_id}: ${d.car_data_id}`,
    ],
    now,
  );
  const t = dailyTotals(d.trips, d.stops);
  figures(doc, [
    [tripLabels.distance_m, reportLabels.km(t.distance_m)],
    [tripLabels.driving_s, reportLabels.duration(t.driving_s)],
    [tripLabels.stop_count, `${t.stops}回`],
    [tripLabels.max_speed_kmh, `${Math.round(t.max_speed_kmh)} km/h`],
  ]);
  const rows = timeline(d);
  if (!rows.length) doc.font('jp').fontSize(11).text(tripLabels.noTrips);
  else {
    const widths: Record<string, number> = {
      kind: 32,
      start_at: 62,
      end_at: 62,
      place: 124,
      end_place: 115,
      distance_km: 42,
      duration_min: 36,
      max_speed_kmh: 42,
    };
    const columns: PdfColumn[] = dailyTimelineColumns.map((c) => ({
      key: c.key,
      header: c.header,
      width: widths[c.key]!,
      align: 'numFmt' in c ? 'right' : 'left',
    }));
    pdfTable(doc, columns, rows, (c, r) => {
      const v = r[c.key];
      if (c.key === 'start_at' || c.key === 'end_at') return shortTime(v);
      if (v === null || v === undefined) return '';
      return c.key === 'distance_km' ? (v as number).toFixed(1) : String(v);
    });
  }
  return { body: await finish(doc), contentType: 'application/pdf', extension: 'pdf' };
}

export async function summaryPdf(d: SummaryReportData, now = new Date()): Promise<ReportFile> {
  const doc = pdfDocument(`${tripLabels.fleetSummary} ${period(d.from, d.to)}`);
  heading(
    doc,
    tripLabels.fleetSummary,
    [
      `${reportLabels.period}: ${period(d.from, d.to)}`,
      `${tripLabels.company}: ${d.company ?? reportLabels.allCompanies}`,
    ],
    now,
  );
  figures(doc, [
    [reportLabels.vehicle, `${d.rows.length}台`],
    [tripLabels.distance_m, reportLabels.km(d.total.distance_m)],
    [tripLabels.driving_s, reportLabels.duration(d.total.driving_s)],
    [tripLabels.trip_count, `${d.total.trips}回`],
  ]);
  const widths: Record<string, number> = {
    car_number: 105,
    car_data_id: 110,
    distance_km: 60,
    driving_h: 60,
    trips: 55,
    stops: 55,
    max_speed_kmh: 70,
  };
  const columns: PdfColumn[] = summaryColumns.map((c) => ({
    key: c.key,
    header: c.header,
    width: widths[c.key]!,
    align: c.key === 'car_number' || c.key === 'car_data_id' ? 'left' : 'right',
  }));
  pdfTable(doc, columns, d.rows.map(summaryRow), (c, r) => {
    const v = r[c.key];
    if (c.key === 'distance_km') return (v as number).toFixed(1);
    if (c.key === 'driving_h') return (v as number).toFixed(2);
    return String(v ?? '');
  });
  return { body: await finish(doc), contentType: 'application/pdf', extension: 'pdf' };
}
