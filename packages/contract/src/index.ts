import { z } from 'zod';
import { ja } from 'zod/locales';

// Japanese default messages for every issue no field builder words itself.
z.config(ja());

export * from './messages.js';
export * from './errors.js';
export * from './fields.js';
export * from './enums.js';
export * from './call.js';
export * from './wire.js';
export * from './permissions.js';
export * from './auth.js';
export * from './totp.js';
export * from './rules/area.js';
export * from './rules/date-filter.js';
export * from './rules/id.js';
export * from './list.js';
export * from './client-config.js';
export * from './rules/csv.js';
export * from './device-protocol.js';
export * from './telemetry.js';
export * from './master-fields.js';
export * from './account.js';
export * from './company.js';
export * from './car-user.js';
export * from './terminal-protocol.js';
export * from './device.js';
export * from './car.js';
export * from './notify.js';
export * from './password-reset.js';
export * from './engine.js';
export * from './areas.js';
export * from './fleet-map.js';
export * from './audit.js';
export * from './webhook.js';
export * from './push.js';
export * from './fast-check.js';
