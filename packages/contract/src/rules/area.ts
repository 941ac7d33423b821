/** A rectangle in degrees (docs/product.md §3 available_data and the area lists). */
export interface Area {
  lat_min: number;
  lat_max: number;
  lng_min: number;
  lng_max: number;
}
export interface Position {
  lat: number;
  lng: number;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const valid = (a: Partial<Area> | null | undefined): a is Area =>
  !!a && isNum(a.lat_min) && isNum(a.lat_max) && isNum(a.lng_min) && isNum(a.lng_max);

/** Straight distance from the position to the area's min corner, and the area's diagonal. */
function measure(pos: Position, a: Area) {
  const distance = Math.hypot(pos.lat - a.lat_min, pos.lng - a.lng_min);
  const diagonal = Math.hypot(a.lat_max - a.lat_min, a.lng_max - a.lng_min);
  return { distance, diagonal };
}

function normalise(pos: Partial<Position> | null | undefined, areas: unknown) {
  if (!pos || !isNum(pos.lat) || !isNum(pos.lng)) return null;
  const list = (Array.isArray(areas) ? areas : areas ? [areas] : []).filter(valid);
  return list.length ? { pos: pos as Position, list } : null;
}

/**
 * docs/product.md §4: outside the available area means distance ≥ diagonal. With
 * several available areas the vehicle is outside only when it is outside every
 * one of them. Missing inputs or no areas: false.
 */
export function isOutsideAvailableArea(
  pos: Partial<Position> | null | undefined,
  areas: Area | Area[] | null | undefined,
): boolean {
  const n = normalise(pos, areas);
  if (!n) return false;
  return n.list.every((a) => {
    const { distance, diagonal } = measure(n.pos, a);
    return distance >= diagonal;
  });
}

/**
 * docs/product.md §4: inside the forbidden area means diagonal ≥ distance; inside any
 * forbidden area counts. Missing inputs or no areas: false.
 */
export function isInsideForbiddenArea(
  pos: Partial<Position> | null | undefined,
  areas: Area | Area[] | null | undefined,
): boolean {
  const n = normalise(pos, areas);
  if (!n) return false;
  return n.list.some((a) => {
    const { distance, diagonal } = measure(n.pos, a);
    return diagonal >= distance;
  });
}
