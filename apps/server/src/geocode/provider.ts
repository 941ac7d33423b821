import { PLACE_SEARCH_MAX, type Place } from '@fleet/contract';
import { municipalityOf } from './municipalities.js';

/**
 * The outside services behind one small interface each (docs/geocoding.md), so another provider is one more
 * implementation. Only coordinates (a cell's centre) and the words typed into a search leave the server.
 */

/** The provider did not answer usably (network, timeout, HTTP error, unreadable body): try again later. */
export class ProviderFailure extends Error {}

export interface ReverseAnswer {
  /** The written address (prefecture, municipality, 町丁目), or null where the provider knows none (at sea). */
  address: string | null;
  muniCd: string | null;
}

export interface ReverseGeocoder {
  reverse(lat: number, lng: number): Promise<ReverseAnswer>;
}

export interface PlaceSearcher {
  search(q: string): Promise<Place[]>;
}

async function getJson(url: URL, timeoutMs: number): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
  } catch (err) {
    throw new ProviderFailure(`${url.host}: ${(err as Error).name === 'TimeoutError' ? 'timed out' : String(err)}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new ProviderFailure(`${url.host}: HTTP ${res.status}`);
  }
  try {
    return await res.json();
  } catch {
    throw new ProviderFailure(`${url.host}: not JSON`);
  }
}

/** GSI writes 町丁目 as "－" where it has none. */
const placeName = (v: unknown) => (typeof v === 'string' && v.trim() && !/^[-－ー―]$/.test(v.trim()) ? v.trim() : '');

/** The address of GSI's answer: `{"results":{"muniCd":"13101","lv01Nm":"丸の内一丁目"}}`; `{}` or no results: none. */
export function addressOfGsi(body: unknown): ReverseAnswer {
  const results = (body as { results?: { muniCd?: unknown; lv01Nm?: unknown } } | null)?.results;
  if (!results || typeof results !== 'object') return { address: null, muniCd: null };
  const muniCd =
    typeof results.muniCd === 'string' || typeof results.muniCd === 'number' ? String(results.muniCd) : null;
  const municipality = municipalityOf(muniCd);
  const town = placeName(results.lv01Nm);
  const address = municipality ? `${municipality.prefecture}${municipality.name}${town}` : town || null;
  return { address, muniCd };
}

/** GSI's LonLatToAddress (`GET ?lat=..&lon=..`), or any server answering in its format. */
export function gsiReverseGeocoder(baseUrl: string, timeoutMs: number): ReverseGeocoder {
  return {
    async reverse(lat, lng) {
      const url = new URL(baseUrl);
      url.searchParams.set('lat', lat.toFixed(6));
      url.searchParams.set('lon', lng.toFixed(6));
      return addressOfGsi(await getJson(url, timeoutMs));
    },
  };
}

/** GSI's AddressSearch answer: a bare array of GeoJSON Point features, `properties.title` the name. */
export function placesOfGsi(body: unknown): Place[] {
  if (!Array.isArray(body)) throw new ProviderFailure('address search: not a list of features');
  const places: Place[] = [];
  for (const f of body as { geometry?: { coordinates?: unknown }; properties?: { title?: unknown } }[]) {
    const [lng, lat] = Array.isArray(f?.geometry?.coordinates) ? (f.geometry.coordinates as unknown[]) : [];
    const name = typeof f?.properties?.title === 'string' ? f.properties.title : '';
    if (typeof lat === 'number' && typeof lng === 'number' && Number.isFinite(lat) && Number.isFinite(lng) && name)
      places.push({ name, lat, lng });
    if (places.length === PLACE_SEARCH_MAX) break;
  }
  return places;
}

/** GSI's AddressSearch (`GET ?q=`), or any server answering in its format. */
export function gsiPlaceSearcher(baseUrl: string, timeoutMs: number): PlaceSearcher {
  return {
    async search(q) {
      const url = new URL(baseUrl);
      url.searchParams.set('q', q);
      return placesOfGsi(await getJson(url, timeoutMs));
    },
  };
}

/** The configured providers; null for a service turned `off`. */
export function geocodeProviders(config: {
  REVERSE_GEOCODER_URL: string;
  ADDRESS_SEARCH_URL: string;
  GEOCODER_TIMEOUT_MS: number;
}): { reverse: ReverseGeocoder | null; search: PlaceSearcher | null } {
  const t = config.GEOCODER_TIMEOUT_MS;
  return {
    reverse: config.REVERSE_GEOCODER_URL === 'off' ? null : gsiReverseGeocoder(config.REVERSE_GEOCODER_URL, t),
    search: config.ADDRESS_SEARCH_URL === 'off' ? null : gsiPlaceSearcher(config.ADDRESS_SEARCH_URL, t),
  };
}
