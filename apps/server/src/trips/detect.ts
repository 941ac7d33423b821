/**
 * Trip and stop detection from a terminal's positions, as a state machine fed in time order
 * (docs/trips.md). Pure: no database, no clock. The state is plain JSON so the job can keep it
 * between runs and feed only the positions that arrived since.
 *
 * The rule (a company may change the numbers):
 * - A stop is at least `stop_min_s` within `stop_radius_m` of where it began, moving under
 *   `stop_speed_kmh` — or with the ignition off, however briefly.
 * - The movement between two stops is a trip when its path covers at least `trip_min_m`; a shorter one
 *   belongs to the stop (the two stops and the movement become one stop).
 * - Distances are summed along the path (haversine between positions), counting a step only once it
 *   leaves the last counted position by JITTER_M, so the scatter of a standing or crawling receiver adds
 *   nothing, and the points of a stop add nothing at all.
 * - A trip is cut at each `cut` instant (midnight in Japan, a change of the vehicle carrying the terminal):
 *   each piece keeps its own distance, so a day's or a company's share is a sum of whole pieces. A piece
 *   cut at midnight is marked `continued` (the same drive goes on).
 */

export interface TripRule {
  stop_min_s: number;
  stop_radius_m: number;
  stop_speed_kmh: number;
  trip_min_m: number;
}

export interface Position {
  /** epoch milliseconds */
  t: number;
  lat: number;
  lng: number;
  /** km/h as the terminal reported it; null when it did not (then taken from the positions) */
  speed: number | null;
  /** false: ignition (engine) off as the terminal last reported it; null/undefined: unknown */
  ignition?: boolean | null;
}

export interface TripPiece {
  start_at: number;
  end_at: number;
  start_lat: number;
  start_lng: number;
  end_lat: number;
  end_lng: number;
  distance_m: number;
  max_speed_kmh: number;
  /** The piece goes on from the one before it (cut at midnight in Japan). */
  continued: boolean;
}

export interface StopSpan {
  start_at: number;
  /** null while the vehicle is still standing there */
  end_at: number | null;
  /** the newest position of the stop */
  last_at: number;
  lat: number;
  lng: number;
}

/** A step shorter than this from the last counted position is GPS scatter, not movement. */
export const JITTER_M = 10;

const R = 6_371_008.8;
const rad = Math.PI / 180;
/** Great-circle distance in metres. */
export function haversine(aLat: number, aLng: number, bLat: number, bLng: number): number {
  const dLat = (bLat - aLat) * rad;
  const dLng = (bLng - aLng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * rad) * Math.cos(bLat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

interface Pt {
  t: number;
  lat: number;
  lng: number;
}
interface Piece {
  start: Pt;
  end: Pt;
  dist: number;
  max: number;
  /** the position distance is counted from */
  counted: { lat: number; lng: number };
  continued: boolean;
}
/** The movement since the last stop ended (or since the first position). */
interface Move {
  pieces: Piece[];
  /** the next cut at or after the current piece's end (epoch ms), null: none known */
  nextCut: number | null;
}
/** Positions that may be a stop: still, within the radius of the first one. */
interface Candidate {
  anchor: Pt;
  last: Pt;
  sumLat: number;
  sumLng: number;
  n: number;
  ignitionOff: boolean;
  /** Long enough (or ignition off): it is the pending stop's tail. */
  confirmed: boolean;
}
/** The newest stop; it may still merge with the next one if the movement between them stays short. */
interface PendingStop {
  start: number;
  end: number;
  sumLat: number;
  sumLng: number;
  n: number;
  /** still standing (the candidate that confirmed it goes on) */
  open: boolean;
}

export interface DetectorState {
  last: (Pt & { speed: number }) | null;
  cand: Candidate | null;
  stop: PendingStop | null;
  move: Move | null;
  /** the movement as it was when the candidate began: the trip, should the candidate become a stop */
  moveAtCand: Move | null;
}

export const initialState = (): DetectorState => ({ last: null, cand: null, stop: null, move: null, moveAtCand: null });

/** What a feed settled for good: nothing later can change these. */
export interface Settled {
  trips: TripPiece[];
  stops: StopSpan[];
}

const copyMove = (m: Move | null): Move | null =>
  m && {
    nextCut: m.nextCut,
    pieces: m.pieces.map((p) => ({ ...p, start: { ...p.start }, end: { ...p.end }, counted: { ...p.counted } })),
  };
const pieceDistance = (p: Piece) => p.dist + haversine(p.counted.lat, p.counted.lng, p.end.lat, p.end.lng);
const moveDistance = (m: Move | null) => (m ? m.pieces.reduce((s, p) => s + pieceDistance(p), 0) : 0);

/**
 * The instants a trip is cut at: each midnight in Japan, and `extra` (the terminal's period boundaries,
 * sorted). Returns the first cut strictly after `t`.
 */
export function cutsAfter(extra: readonly number[]) {
  const JST = 9 * 3600_000;
  const DAY = 86_400_000;
  return (t: number): number => {
    const midnight = Math.floor((t + JST) / DAY) * DAY + DAY - JST;
    let next = midnight;
    for (const c of extra) {
      if (c > t) {
        if (c < next) next = c;
        break;
      }
    }
    return next;
  };
}
/** Midnight (JST) cuts mark the next piece `continued`; a period boundary does not. */
const isMidnight = (t: number) => (t + 9 * 3600_000) % 86_400_000 === 0;

export class Detector {
  readonly settled: Settled = { trips: [], stops: [] };

  constructor(
    private readonly rule: TripRule,
    private readonly nextCut: (t: number) => number,
    readonly state: DetectorState = initialState(),
  ) {}

  /** Feeds positions (time order; a position not after the last one is ignored). */
  feed(points: Iterable<Position>): this {
    for (const p of points) this.step(p);
    return this;
  }

  private step(p: Position) {
    const s = this.state;
    const last = s.last;
    if (last && p.t <= last.t) return;
    const dt = last ? (p.t - last.t) / 1000 : 0;
    const step = last ? haversine(last.lat, last.lng, p.lat, p.lng) : 0;
    const speed = p.speed ?? (last && dt > 0 ? (step / dt) * 3.6 : 0);
    const ignitionOff = p.ignition === false;
    // Without a reported speed a standing receiver's scatter looks like movement: any step within the stop
    // radius may begin a candidate, and staying within the radius for the stop time decides.
    const slow = p.speed !== null ? p.speed < this.rule.stop_speed_kmh : !last || step <= this.rule.stop_radius_m;
    const still = ignitionOff || slow;
    const pt = { t: p.t, lat: p.lat, lng: p.lng };
    // Many terminals sleep while parked: no position for as long as a stop lasts, then the next one where
    // the last was. The vehicle stood there all that time, from the last position to this one.
    // A silence that ends elsewhere at a pace no drive has (a terminal off for days, a vehicle carried) is
    // a stop too: it stood at its last place until the terminal spoke again, and no path is made up across
    // the gap. A silence covered at driving pace (a long tunnel) stays part of the drive.
    const silent =
      last !== null &&
      dt >= this.rule.stop_min_s &&
      (step <= this.rule.stop_radius_m || (step / dt) * 3.6 < this.rule.stop_speed_kmh);
    const stoodSilent = silent && step <= this.rule.stop_radius_m;
    const reappeared = silent && !stoodSilent;
    if (silent && !s.cand) {
      s.moveAtCand = copyMove(s.move);
      s.cand = {
        anchor: { t: last.t, lat: last.lat, lng: last.lng },
        last: { t: last.t, lat: last.lat, lng: last.lng },
        sumLat: last.lat,
        sumLng: last.lng,
        n: 1,
        ignitionOff: false,
        confirmed: false,
      };
    }

    const c = s.cand;
    if (c) {
      // Within the radius of where the candidate's positions centre (its first fix may be one of the scattered ones).
      const within = haversine(c.sumLat / c.n, c.sumLng / c.n, p.lat, p.lng) <= this.rule.stop_radius_m;
      // A stop without a reported speed is judged by the radius alone: scatter within it is standing.
      const stays = ignitionOff || stoodSilent || (within && (p.speed === null || p.speed < this.rule.stop_speed_kmh));
      if (stays) {
        c.last = pt;
        c.sumLat += p.lat;
        c.sumLng += p.lng;
        c.n++;
        if (ignitionOff) c.ignitionOff = true;
        if (c.confirmed) {
          const stop = s.stop!;
          stop.end = p.t;
          stop.sumLat += p.lat;
          stop.sumLng += p.lng;
          stop.n++;
        } else {
          this.addToMove(pt, speed);
          this.maybeConfirm();
        }
        s.last = { ...pt, speed };
        return;
      }
      if (reappeared) {
        // It stood there until now; the movement begins here, not at the last place.
        c.last = { t: p.t, lat: c.last.lat, lng: c.last.lng };
        if (c.confirmed) s.stop!.end = p.t;
        else this.maybeConfirm();
      }
      // The candidate ends here.
      if (c.confirmed) {
        s.stop!.open = false;
        s.move = this.newMove(c.last);
        if (reappeared) {
          // Settled: nothing after the silence may merge with it.
          this.settled.stops.push(stopSpan(s.stop!));
          s.stop = null;
          s.move = null;
        }
      }
      s.cand = null;
      s.moveAtCand = null;
    }
    this.addToMove(pt, speed);
    if (still) {
      s.moveAtCand = copyMove(s.move);
      s.cand = {
        anchor: pt,
        last: pt,
        sumLat: p.lat,
        sumLng: p.lng,
        n: 1,
        ignitionOff,
        confirmed: false,
      };
      this.maybeConfirm();
    }
    s.last = { ...pt, speed };
  }

  private newMove(from: Pt): Move {
    return {
      pieces: [
        { start: from, end: from, dist: 0, max: 0, counted: { lat: from.lat, lng: from.lng }, continued: false },
      ],
      nextCut: this.nextCut(from.t),
    };
  }

  /** Extends the movement to `pt`, cutting it at each cut instant passed on the way. */
  private addToMove(pt: Pt, speed: number) {
    const s = this.state;
    if (!s.move) {
      s.move = this.newMove(pt);
      return;
    }
    const m = s.move;
    let piece = m.pieces[m.pieces.length - 1]!;
    while (m.nextCut !== null && pt.t >= m.nextCut && piece.end.t < m.nextCut) {
      const cut = m.nextCut;
      const f = (cut - piece.end.t) / (pt.t - piece.end.t);
      const at = {
        t: cut,
        lat: piece.end.lat + (pt.lat - piece.end.lat) * f,
        lng: piece.end.lng + (pt.lng - piece.end.lng) * f,
      };
      piece.dist += haversine(piece.counted.lat, piece.counted.lng, at.lat, at.lng);
      piece.counted = { lat: at.lat, lng: at.lng };
      piece.end = at;
      piece.max = Math.max(piece.max, speed);
      const next: Piece = {
        start: at,
        end: at,
        dist: 0,
        max: 0,
        counted: { lat: at.lat, lng: at.lng },
        continued: isMidnight(cut),
      };
      m.pieces.push(next);
      piece = next;
      m.nextCut = this.nextCut(cut);
    }
    const d = haversine(piece.counted.lat, piece.counted.lng, pt.lat, pt.lng);
    if (d >= JITTER_M) {
      piece.dist += d;
      piece.counted = { lat: pt.lat, lng: pt.lng };
    }
    piece.end = pt;
    piece.max = Math.max(piece.max, speed);
  }

  private maybeConfirm() {
    const s = this.state;
    const c = s.cand!;
    const long = c.last.t - c.anchor.t >= this.rule.stop_min_s * 1000;
    if (!long && !(c.ignitionOff && c.last.t > c.anchor.t)) return;
    const trip = s.moveAtCand;
    const tripLong = moveDistance(trip) >= this.rule.trip_min_m;
    if (s.stop && !tripLong) {
      // A short movement belongs to the stop: the stop before it goes on through the candidate.
      s.stop.end = c.last.t;
      s.stop.sumLat += c.sumLat;
      s.stop.sumLng += c.sumLng;
      s.stop.n += c.n;
      s.stop.open = true;
    } else {
      if (s.stop) this.settled.stops.push(stopSpan(s.stop));
      if (trip && tripLong) this.settled.trips.push(...trip.pieces.filter(hasLength).map(tripPiece));
      s.stop = { start: c.anchor.t, end: c.last.t, sumLat: c.sumLat, sumLng: c.sumLng, n: c.n, open: true };
    }
    c.confirmed = true;
    s.move = null;
    s.moveAtCand = null;
  }

  /**
   * What is not settled yet, as it stands: the newest stop (end_at null while standing) and the movement
   * since it, as trip pieces once it has covered `trip_min_m`.
   */
  pending(): Settled {
    const s = this.state;
    const stops = s.stop ? [stopSpan(s.stop)] : [];
    const moving = s.cand && !s.cand.confirmed ? s.moveAtCand : s.cand ? null : s.move;
    const trips =
      moving && moveDistance(moving) >= this.rule.trip_min_m ? moving.pieces.filter(hasLength).map(tripPiece) : [];
    return { trips, stops };
  }
}

const hasLength = (p: Piece) => p.end.t > p.start.t;

const tripPiece = (p: Piece): TripPiece => {
  const dist = pieceDistance(p);
  return {
    start_at: p.start.t,
    end_at: p.end.t,
    start_lat: p.start.lat,
    start_lng: p.start.lng,
    end_lat: p.end.lat,
    end_lng: p.end.lng,
    distance_m: Math.round(dist * 10) / 10,
    max_speed_kmh: Math.round(p.max * 10) / 10,
    continued: p.continued,
  };
};

const stopSpan = (s: PendingStop): StopSpan => ({
  start_at: s.start,
  end_at: s.open ? null : s.end,
  last_at: s.end,
  lat: s.sumLat / s.n,
  lng: s.sumLng / s.n,
});

/** Average speed of a trip piece in km/h (0 for a piece without duration). */
export const averageSpeed = (distanceM: number, startAt: number, endAt: number) =>
  endAt > startAt ? Math.round((distanceM / ((endAt - startAt) / 1000)) * 3.6 * 10) / 10 : 0;
