import { describe, expect, it } from 'vitest';
import { isInsideForbiddenArea, isOutsideAvailableArea } from './area.js';

const area = { lat_min: 35.0, lat_max: 35.3, lng_min: 139.0, lng_max: 139.4 }; // diagonal 0.5

describe('isOutsideAvailableArea', () => {
  it('is false when the distance to the min corner is below the diagonal', () => {
    expect(isOutsideAvailableArea({ lat: 35.1, lng: 139.1 }, area)).toBe(false);
  });
  it('is true when the distance equals the diagonal (at least)', () => {
    expect(isOutsideAvailableArea({ lat: 35.3, lng: 139.4 }, area)).toBe(true);
  });
  it('is true beyond the diagonal', () => {
    expect(isOutsideAvailableArea({ lat: 36, lng: 140 }, area)).toBe(true);
  });
  it('judges by distance, not by the rectangle: a point below the min corner but near it is inside', () => {
    expect(isOutsideAvailableArea({ lat: 34.9, lng: 138.9 }, area)).toBe(false);
  });
  it('is outside only when outside every available area', () => {
    const far = { lat_min: 40, lat_max: 40.3, lng_min: 140, lng_max: 140.4 };
    expect(isOutsideAvailableArea({ lat: 35.1, lng: 139.1 }, [far, area])).toBe(false);
    expect(isOutsideAvailableArea({ lat: 37, lng: 139.1 }, [far, area])).toBe(true);
  });
  it('is false on missing inputs or no areas', () => {
    expect(isOutsideAvailableArea(null, area)).toBe(false);
    expect(isOutsideAvailableArea({ lat: 36, lng: 140 }, null)).toBe(false);
    expect(isOutsideAvailableArea({ lat: 36, lng: 140 }, [])).toBe(false);
    expect(isOutsideAvailableArea({ lat: Number.NaN, lng: 140 }, area)).toBe(false);
    expect(isOutsideAvailableArea({ lat: 36, lng: 140 }, [{ ...area, lat_min: undefined } as never])).toBe(false);
  });
});

describe('isInsideForbiddenArea', () => {
  it('is true when the diagonal is at least the distance', () => {
    expect(isInsideForbiddenArea({ lat: 35.1, lng: 139.1 }, area)).toBe(true);
    expect(isInsideForbiddenArea({ lat: 35.3, lng: 139.4 }, area)).toBe(true);
  });
  it('is false beyond the diagonal', () => {
    expect(isInsideForbiddenArea({ lat: 36, lng: 140 }, area)).toBe(false);
  });
  it('is true when inside any of several areas', () => {
    const far = { lat_min: 40, lat_max: 40.3, lng_min: 140, lng_max: 140.4 };
    expect(isInsideForbiddenArea({ lat: 35.1, lng: 139.1 }, [far, area])).toBe(true);
  });
  it('is false on missing inputs or no areas', () => {
    expect(isInsideForbiddenArea(undefined, area)).toBe(false);
    expect(isInsideForbiddenArea({ lat: 35.1, lng: 139.1 }, [])).toBe(false);
    expect(isInsideForbiddenArea({ lat: 35.1, lng: 139.1 }, undefined)).toBe(false);
  });
});
