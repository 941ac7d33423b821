/**
 * The cache's cells: 1/10,000 degree (about 11 m north-south, 9 m east-west in Japan), keyed by floor(deg × 10,000)
 * in JavaScript and in SQL alike (both compute the same IEEE double product). The provider is asked for the cell's
 * centre, never for a vehicle's own position.
 */
export const CELLS_PER_DEGREE = 10_000;

export interface Cell {
  cell_lat: number;
  cell_lng: number;
}

export const cellOf = (lat: number, lng: number): Cell => ({
  cell_lat: Math.floor(lat * CELLS_PER_DEGREE),
  cell_lng: Math.floor(lng * CELLS_PER_DEGREE),
});

export const cellKey = (c: Cell) => `${c.cell_lat}:${c.cell_lng}`;

/** The centre of a cell, rounded to the cell's precision and a half. */
export const cellCentre = (c: Cell) => ({
  lat: (c.cell_lat + 0.5) / CELLS_PER_DEGREE,
  lng: (c.cell_lng + 0.5) / CELLS_PER_DEGREE,
});

/** Whether a position lies on the globe (the logs keep whatever a terminal sent). */
export const onGlobe = (lat: number, lng: number) =>
  Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;

/** The SQL of a cell's key from a row's lat and lng columns, as cellOf computes it; NULL off the globe. */
export const cellSql = (lat: string, lng: string) => {
  const on = `abs(${lat}) <= 90 AND abs(${lng}) <= 180`;
  return {
    lat: `CASE WHEN ${on} THEN floor(${lat} * ${CELLS_PER_DEGREE})::int END`,
    lng: `CASE WHEN ${on} THEN floor(${lng} * ${CELLS_PER_DEGREE})::int END`,
  } as const;
};
